"""Words and names: tokenizing tool/parameter names, singular/plural nouns, slugs and short unique names."""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache
from typing import Iterable

_CAMEL1 = re.compile(r"([a-z0-9])([A-Z])")
_CAMEL2 = re.compile(r"([A-Z]+)([A-Z][a-z])")
_NON_ALNUM = re.compile(r"[^A-Za-z0-9]+")
_IDENT = re.compile(r"^[a-zA-Z][a-zA-Z0-9_]{0,63}$")


def words(name: str) -> list[str]:
    """`getUserByID`, `get-user_by.id` -> ['get', 'user', 'by', 'id'] (ASCII words only)."""
    return list(_words(name))


@lru_cache(maxsize=65536)  # asked hundreds of thousands of times per corpus for a few thousand names
def _words(name: str) -> tuple[str, ...]:
    s = _CAMEL2.sub(r"\1_\2", _CAMEL1.sub(r"\1_\2", name))
    return tuple(w for w in _NON_ALNUM.split(s.lower()) if w)


def snake(name: str) -> str:
    """A snake_case identifier for a name; never empty, never starts with a digit."""
    out = "_".join(words(name))
    if not out:
        out = "x" + sha1_tag(name, 6)
    if out[0].isdigit():
        out = "n" + out
    return out


def sha1_tag(text: str, n: int = 4) -> str:
    """The first `n` hex digits of the SHA-1 of `text`. Not `compoworld.canonical.short_hash`
    (SHA-256) on purpose: compiled service and tool names and plan versions are derived from it, and
    those names are keys of caches, warehouses and task ids made before."""
    return hashlib.sha1(text.encode("utf-8", "replace")).hexdigest()[:n]


def is_identifier(name: str) -> bool:
    return bool(_IDENT.match(name))


def tool_identifier(name: str) -> str:
    """An MCP/OpenAI-safe tool name (`[a-zA-Z][a-zA-Z0-9_]*`), keeping the original when it already is one."""
    if is_identifier(name) and "__" not in name:
        return name
    out = re.sub(r"_+", "_", re.sub(r"[^a-zA-Z0-9_]+", "_", name)).strip("_")
    if not out or not out[0].isalpha():
        out = "t_" + out if out else "t_" + sha1_tag(name)
    return out


def shorten(name: str, budget: int) -> str:
    """Cut a name to `budget` chars deterministically: keep a readable head and a hash of the whole."""
    if len(name) <= budget:
        return name
    tag = sha1_tag(name, 5)
    head = name[: max(1, budget - len(tag) - 1)].rstrip("_")
    return f"{head}_{tag}"[:budget]


def unique(name: str, taken: set[str], budget: int = 64) -> str:
    """`name`, or `name_2`, `name_3`... (within budget) so that it is not in `taken`; records it."""
    cand = shorten(name, budget)
    i = 2
    while cand in taken:
        suffix = f"_{i}"
        cand = shorten(name, budget - len(suffix)) + suffix
        i += 1
    taken.add(cand)
    return cand


# -- nouns ------------------------------------------------------------------------------------

_IRREGULAR = {
    # plurals in "-os" (_KEEP_S keeps "macos" and "kudos" whole)
    "audios": "audio", "videos": "video", "photos": "photo", "repos": "repo", "todos": "todo", "memos": "memo", "logos": "logo",
    "demos": "demo", "scenarios": "scenario", "portfolios": "portfolio", "ratios": "ratio", "studios": "studio", "radios": "radio",
    # and in "-as" ("alias" and "canvas" stay whole)
    "areas": "area", "ideas": "idea", "schemas": "schema", "formulas": "formula", "personas": "persona", "quotas": "quota",
    "replicas": "replica", "agendas": "agenda",
    "people": "person", "children": "child", "men": "man", "women": "woman", "mice": "mouse",
    "geese": "goose", "feet": "foot", "teeth": "tooth", "indices": "index", "vertices": "vertex",
    "matrices": "matrix", "criteria": "criterion", "phenomena": "phenomenon", "analyses": "analysis",
    "theses": "thesis", "diagnoses": "diagnosis", "leaves": "leaf", "lives": "life", "knives": "knife",
    "wives": "wife", "halves": "half", "shelves": "shelf", "wolves": "wolf", "quizzes": "quiz",
    "statuses": "status", "aliases": "alias", "buses": "bus", "viruses": "virus", "addresses": "address",
    "processes": "process", "classes": "class", "businesses": "business", "accesses": "access",
    "boxes": "box", "taxes": "tax", "indexes": "index", "caches": "cache", "databases": "database",
    "releases": "release", "responses": "response", "licenses": "license", "courses": "course",
    "resources": "resource", "sources": "source", "services": "service", "devices": "device",
    "invoices": "invoice", "prices": "price", "spaces": "space", "places": "place", "pages": "page",
    "messages": "message", "images": "image", "packages": "package", "changes": "change",
    "purchases": "purchase", "cases": "case", "phases": "phase", "bases": "base", "uses": "use",
    "issues": "issue", "values": "value", "queues": "queue", "files": "file", "profiles": "profile",
    "types": "type", "notes": "note", "nodes": "node", "modules": "module", "rules": "rule",
    "schedules": "schedule", "tables": "table", "titles": "title", "articles": "article",
    "vehicles": "vehicle", "movies": "movie", "cookies": "cookie", "stories": "story", "series": "series",
    "species": "species", "news": "news", "data": "data", "metadata": "metadata", "media": "media",
    "analytics": "analytics", "statistics": "statistics", "stats": "stats", "details": "detail",
    "settings": "setting", "lyrics": "lyrics", "goods": "goods", "glasses": "glass", "passes": "pass",
}
_KEEP_S = ("ss", "us", "is", "os", "as", "ws", "ics")


def singular(word: str) -> str:
    w = word.lower()
    if w in _IRREGULAR:
        return _IRREGULAR[w]
    if len(w) <= 3 or not w.endswith("s") or w.endswith(_KEEP_S):
        return w
    if w.endswith("ies") and len(w) > 4:
        return w[:-3] + "y"
    if w.endswith(("sses", "shes", "ches", "xes", "zes")):
        return w[:-2]
    return w[:-1]


def is_plural(word: str) -> bool:
    w = word.lower()
    if w in ("news", "series", "species", "data", "metadata", "media", "analytics", "statistics", "stats", "lyrics"):
        return w != "media" and w not in ("metadata",)
    return singular(w) != w


def plural(word: str) -> str:
    w = word.lower()
    for pl, sg in _IRREGULAR.items():
        if sg == w and pl != w:
            return pl
    if w.endswith(("s", "x", "z", "ch", "sh")):
        return w + "es"
    if w.endswith("y") and len(w) > 1 and w[-2] not in "aeiou":
        return w[:-1] + "ies"
    return w + "s"


def slugify(text: str, budget: int = 24, drop: Iterable[str] = ()) -> str:
    """A service name: lowercase `[a-z][a-z0-9_]*`, <= budget chars, without filler words."""
    dropped = set(drop)
    # no camelCase split here: `GitHub` is `github`, not `git_hub`
    raw = [t for t in _NON_ALNUM.split(text.lower()) if t]
    trimmed = []
    for t in raw:
        for glued in ("mcpserver", "mcp", "server"):
            if t.endswith(glued) and len(t) > len(glued) + 2:
                t = t[: -len(glued)]
        trimmed.append(t)
    toks = [t for t in trimmed if t not in dropped] or trimmed or ["service"]
    out = ""
    for t in toks:
        nxt = f"{out}_{t}" if out else t
        if len(nxt) > budget:
            break
        out = nxt
    if not out:
        out = toks[0][:budget]
    if not out[0].isalpha():
        out = ("s" + out)[:budget]
    return out


# Entity names inferred from tool names that are no nouns (`get_visible_elements` -> "visible",
# `analyze_url` -> "analyze"): a request cannot ask for "the optimized with url ..." (see `reads_as_noun`).
_NOT_NOUNS = frozenset(
    # verbs that name no record
    "read fetch get set add create send analyze analyse suggest fill replace edit delete remove convert extract think exist "
    "initiate diagnose protect unprotect include fly align need find make do crawlhtml "
    # adjectives, adverbs and function words
    "visible historical local trending private public deep multi associated temp similar common global intraday around mid "
    "arbitrary distinct smart relative lite general precise hist realtime essential minimal complete alternative hot min how "
    "random anyone recent new locally multilingual only entire hourly daily weekly monthly annual next seen me this generic "
    "supplementary done latest current live active raw full simple advanced basic custom remote internal external single "
    "auto old previous nearby free open available upcoming popular semantic observable short slim top".split())
_NOUNS_IN_ED = frozenset("feed seed speed breed creed bed shed reed weed embed red bred need".split())
_NOUNS_IN_ABLE = frozenset("syllable variable table cable vegetable timetable receivable payable deliverable collectible convertible".split())


def reads_as_noun(entity: str) -> bool:
    """Whether an inferred entity name can stand as a noun in a sentence ("the {entity} named X"):
    not a verb, an adjective, an adverb or a participle (`optimized`, `searchable`)."""
    last = entity.lower().rsplit("_", 1)[-1]
    if last in _NOT_NOUNS:
        return False
    if last.endswith("ed") and len(last) > 4 and last not in _NOUNS_IN_ED:
        return False
    return not (last.endswith(("able", "ible")) and len(last) > 6 and last not in _NOUNS_IN_ABLE)


# Words `singular` leaves alone for their ending ("-os", "-as", "-ws", "-is") that are singular indeed.
_SINGULAR_IN_S = frozenset("news gas canvas alias this citeas basis analysis axis thesis synopsis diagnosis atlas bias chaos "
                           "cosmos ethos kudos logos macos ios os qgis pandas tennis iris crisis".split())


def spoken_entity(entity: str) -> str:
    """An entity name as a request says one record of it: "video", where inference kept `videos`
    (`singular` keeps words in -os, -as, -ws and -is whole, for `status` and `canvas`)."""
    head, _, last = entity.rpartition("_")
    if len(last) > 3 and last.endswith(("os", "as", "ws", "is")) and last not in _SINGULAR_IN_S:
        return f"{head}_{last[:-1]}" if head else last[:-1]
    return entity


def is_numbered_name(value: str, entity: str) -> bool:
    """Whether a record's name only numbers it among its kind ("Bank 1" for a bank, "Biorxiv 12"):
    nothing a person would call it by."""
    return re.fullmatch(re.escape(entity.replace("_", " ")) + r"s? \d+", value.strip(), re.IGNORECASE) is not None


_SAVES = re.compile(r"\band (?:then )?(?:save|saves|store|stores|persist|persists)\b", re.I)


def says_it_keeps(description: str) -> bool:
    """Whether a description's first sentence says the tool keeps what it makes ("Convert a plan into a
    Markdown task list and save it", "Isolate audio from a file and save the output file"): such a tool
    changes something, whatever its first verb."""
    return bool(_SAVES.search(re.split(r"(?<=[.!?])\s", description.strip(), 1)[0]))
