"""Browser sessions of compiled services: a service whose tools navigate to a URL (Playwright,
Puppeteer, Browserbase) holds one session, the pages it visited in order with the current one
marked. Navigating opens a page, going back and forward moves along the history, clicking and
typing act on the current page (and are remembered on it), reading and screenshots answer the
current page, closing ends the session. Before that, each of them compiled to a logged action
answering "completed", or a lookup of a document that no navigation had opened.

Pages are the world's: a page's title and text follow from its address (`world.page_of`), the
same for the same URL in every run."""

from __future__ import annotations

from typing import Any, Literal

from compoworld.services.tool import ToolError
from compoworld.synthesis.naming import words
from compoworld.synthesis.plan import EntityPlan, FieldPlan, ToolPlan
from compoworld.synthesis.world import page_of, render_page

BrowserKind = Literal["navigate", "back", "forward", "interact", "read", "screenshot", "close"]
BROWSER_PAGES = "browser_pages"
URL_PARAMS = frozenset({"url", "urls", "uri", "href", "link", "page_url", "target_url"})
NAVIGATE_WORDS = frozenset({"navigate", "goto"})
INTERACT_WORDS = frozenset({"click", "hover", "type", "fill", "select", "press", "drag", "scroll", "check", "uncheck", "focus",
                            "tap", "swipe", "wheel", "mouse", "input", "upload", "drop"})
READ_WORDS = frozenset({"text", "html", "markdown", "content", "snapshot", "source", "title"})
# a page's own words: a tool about another thing (a tab, a session, a codegen recording, a profile) is no page tool
OTHER_THINGS = frozenset({"tab", "tabs", "session", "codegen", "profile", "group", "download", "test", "console", "network",
                          "dialog", "file", "files", "local", "elements", "links", "clickable", "interactive"})


def url_param(names: list[str]) -> str | None:
    """The parameter among `names` that takes a page's address."""
    return next((n for n in names if n.lower().replace("-", "_") in URL_PARAMS), None)


def browser_kind(name: str, params: list[str]) -> BrowserKind | None:
    """What a tool of a browser service does to the session, from its name's words and its
    parameters' names; None for a tool that is no page tool (a tab list, a codegen session)."""
    ws = set(words(name))
    url = url_param(params)
    if ws & OTHER_THINGS:
        return None
    if "back" in ws and ws & (NAVIGATE_WORDS | {"go", "history"}):
        return "back"
    if "forward" in ws and ws & (NAVIGATE_WORDS | {"go", "history"}):
        return "forward"
    if ws & NAVIGATE_WORDS and url:
        return "navigate"
    if url:  # `screenshot_url(url)`, `scrape_as_html(url)`: a fetch of that page, outside the session
        return None
    if ws & {"screenshot", "capture"}:
        return "screenshot"
    if "close" in ws:
        return "close"
    if ws & INTERACT_WORDS:
        return "interact"
    if ws & READ_WORDS and ws & {"get", "visible", "snapshot", "read", "page", "all"}:
        return "read"
    return None


def is_browser(names_and_params: list[tuple[str, list[str]]]) -> bool:
    """A service that navigates to URLs and acts on the page: one navigating tool and one other page tool."""
    kinds = [browser_kind(n, ps) for n, ps in names_and_params]
    return "navigate" in kinds and any(k in ("interact", "read", "screenshot") for k in kinds)


def browser_entity() -> EntityPlan:
    """The session's pages, in the order visited; `current` marks the page the browser shows."""
    return EntityPlan(collection=BROWSER_PAGES, entity="browser_page", prefix="bpage", size=0, topic="webpage", fields=[
        FieldPlan(name="id", shape={"type": "string"}, role="id"),
        FieldPlan(name="url", shape={"type": "string"}, sem="url"),
        FieldPlan(name="title", shape={"type": "string"}, sem="title", role="title"),
        FieldPlan(name="events", shape={"type": "array"}),
        FieldPlan(name="current", shape={"type": "boolean"}, sem="flag"),
        FieldPlan(name="visited_at", shape={"type": "string"}, sem="datetime", role="created"),
    ])


_STR, _INT = {"type": "string"}, {"type": "integer"}


def browser_output(t: ToolPlan) -> dict[str, Any]:
    props: dict[str, Any] = {"url": _STR, "title": _STR}
    if t.browser == "navigate":
        props["status"] = _INT
    elif t.browser == "interact":
        props |= {"action": _STR, "target": {"type": ["string", "null"]}, "value": {}, "ok": {"type": "boolean"}}
    elif t.browser == "read":
        props[_markup_field(t)] = _STR
    elif t.browser == "screenshot":
        props |= {"format": _STR, "width": _INT, "height": _INT}
    elif t.browser == "close":
        props = {"closed": {"type": "boolean"}, "pages": _INT}
    return {"type": "object", "properties": props, "required": list(props)}


def _markup_field(t: ToolPlan) -> str:
    ws = set(words(t.original))
    return next((m for m in ("html", "markdown", "snapshot") if m in ws), "text")


def _first_text(args: dict[str, Any], prefer: tuple[str, ...]) -> Any:
    for name in prefer:
        for k, v in args.items():
            if k.lower() == name and v is not None:
                return v
    return next((v for v in args.values() if isinstance(v, str)), None)


def run_browser(svc: Any, t: ToolPlan, args: dict[str, Any], world: Any) -> dict[str, Any]:
    """One call of a page tool against the service's session (its `browser_pages` table); `world`
    names the sites its pages are on."""
    table = svc.db[BROWSER_PAGES]
    pages = list(table)
    cur = next((i for i, r in enumerate(pages) if r.get("current")), None)
    if t.browser == "navigate":
        url = args.get(url_param(list(args)) or "")
        if not isinstance(url, str) or not url.startswith(("http://", "https://")):
            raise ToolError("give the page's address as an http:// or https:// URL")
        if cur is not None:  # a new page ends the forward history, as in a browser
            table.update(pages[cur]["id"], current=False)
            for r in pages[cur + 1:]:
                table.delete(r["id"])
        topic, site = page_of(url, world)
        title = f"{topic} | {site}"
        table.insert({"url": url, "title": title, "events": [], "current": True, "visited_at": svc.now()})
        return {"url": url, "title": title, "status": 200}
    if cur is None:
        raise ToolError("no page is open: navigate to a URL first")
    page = pages[cur]
    if t.browser in ("back", "forward"):
        to = cur - 1 if t.browser == "back" else cur + 1
        if not 0 <= to < len(pages):
            raise ToolError(f"there is no {'earlier' if t.browser == 'back' else 'later'} page in this session's history")
        table.update(page["id"], current=False)
        table.update(pages[to]["id"], current=True)
        return {"url": pages[to]["url"], "title": pages[to]["title"]}
    if t.browser == "interact":
        target = _first_text(args, ("selector", "element", "ref", "target", "text", "key", "locator", "xpath"))
        value = _first_text(args, ("value", "text", "values", "option", "key", "input"))
        action = t.verb or words(t.original)[-1]
        table.update(page["id"], events=list(page.get("events") or []) + [{"action": action, "target": target, "value": value}])
        return {"url": page["url"], "title": page["title"], "action": action, "target": target, "value": value, "ok": True}
    if t.browser == "read":
        topic, site = page_of(page["url"], world)
        field = _markup_field(t)
        body = render_page(topic, site, {field})
        if field == "snapshot":  # an accessibility snapshot: the page's landmarks as a tree
            body = f'- document "{page["title"]}"\n  - heading "{topic}" [level=1]\n  - paragraph: {render_page(topic, site, set())}'
        return {"url": page["url"], "title": page["title"], field: body}
    if t.browser == "screenshot":
        return {"url": page["url"], "title": page["title"], "format": "png", "width": 1280, "height": 720}
    # close: the session ends; its pages are gone
    for r in pages:
        table.delete(r["id"])
    return {"closed": True, "pages": len(pages)}
