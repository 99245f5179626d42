"""The seeded synthetic world behind compiled services: realistic field values chosen by semantic
type, field name and JSON shape, and topic templates (weather, prices, papers...) that give
outside-world lookups their record fields."""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any, Callable

from compoworld.canonical import format_timestamp, short_hash
from compoworld.services.fake import CITIES, COMPANY_A, WORDS, World
from compoworld.synthesis.naming import words
from compoworld.services.json_schema import json_types, main_type, sample

TICKERS = ["AAPL", "MSFT", "GOOG", "AMZN", "NVDA", "TSLA", "META", "NFLX", "IBM", "ORCL", "BTC", "ETH", "SOL", "ADA"]
CURRENCIES = ["USD", "EUR", "GBP", "JPY", "CHF", "CAD", "AUD", "SGD"]
LANGUAGES = ["python", "typescript", "javascript", "go", "rust", "java"]
CONDITIONS = ["sunny", "partly cloudy", "cloudy", "light rain", "rain", "thunderstorm", "snow", "fog", "windy"]
GENRES = ["drama", "comedy", "documentary", "science fiction", "thriller", "animation", "history", "jazz", "rock"]
COLORS = ["red", "green", "blue", "orange", "purple", "teal", "black", "white"]
TIMEZONES = ["UTC", "America/New_York", "Europe/London", "Europe/Berlin", "Asia/Tokyo", "Asia/Singapore", "Australia/Sydney"]
EXTS = ["md", "txt", "json", "csv", "py", "pdf", "docx"]
SOURCES = ["Reuters", "AP News", "BBC", "The Verge", "TechCrunch", "Nature", "Bloomberg"]


def rng_for(*parts: Any) -> random.Random:
    """A generator that depends only on `parts` (stable across processes and Python hash seeds)."""
    return random.Random(short_hash("\x1f".join(str(p) for p in parts), 64))


# -- topic templates: fields a record of an outside-world lookup carries ------------------------

F = tuple[str, str | None, dict[str, Any]]  # (field name, semantic type, shape)
S, N, I, B = {"type": "string"}, {"type": "number"}, {"type": "integer"}, {"type": "boolean"}
SA = {"type": "array", "items": {"type": "string"}}

TOPICS: list[tuple[str, tuple[str, ...], list[F]]] = [
    ("weather", ("weather", "forecast", "temperature", "climate", "rain", "wind", "humidity", "meteo"),
     [("temperature_c", None, N), ("conditions", "category", S), ("humidity", "percent", I), ("wind_kph", None, N), ("observed_at", "datetime", S)]),
    ("price", ("price", "stock", "ticker", "quote", "crypto", "coin", "market", "token", "trading", "ohlc", "candle", "share"),
     [("symbol", "code", S), ("price", "money", N), ("currency", "currency", S), ("change_percent", None, N), ("volume", "quantity", I), ("as_of", "datetime", S)]),
    ("rate", ("exchange", "rate", "forex", "fx", "conversion"),
     [("base", "currency", S), ("quote", "currency", S), ("rate", None, N), ("as_of", "datetime", S)]),
    ("news", ("news", "article", "headline", "story", "stories", "post", "blog", "feed", "trending", "hot", "rss"),
     [("title", "title", S), ("source", "company_name", S), ("url", "url", S), ("published_at", "datetime", S), ("summary", "text", S), ("author", "person_name", S)]),
    ("paper", ("paper", "publication", "arxiv", "pubmed", "research", "citation", "scholar", "journal", "study"),
     [("title", "title", S), ("authors", None, SA), ("year", None, I), ("abstract", "text", S), ("url", "url", S), ("citations", "quantity", I)]),
    ("package", ("repo", "repository", "package", "library", "crate", "gem", "npm", "pypi", "module", "plugin", "extension", "project"),
     [("name", "title", S), ("description", "text", S), ("version", "code", S), ("url", "url", S), ("stars", "quantity", I), ("license", "category", S)]),
    ("person", ("user", "profile", "person", "people", "author", "member", "account", "customer", "employee", "contact", "player", "athlete", "artist"),
     [("name", "person_name", S), ("email", "email", S), ("username", None, S), ("location", "city", S), ("joined_at", "date", S)]),
    ("company", ("company", "organization", "organisation", "business", "org", "brand", "vendor", "competitor", "startup"),
     [("name", "company_name", S), ("domain", None, S), ("industry", "category", S), ("city", "city", S), ("country", "country", S), ("employees", "quantity", I)]),
    ("product", ("product", "item", "listing", "offer", "deal", "shop", "catalog", "sku", "inventory"),
     [("name", "title", S), ("price", "money", N), ("currency", "currency", S), ("rating", None, N), ("url", "url", S), ("in_stock", "flag", B)]),
    ("place", ("location", "place", "address", "geocode", "coordinate", "poi", "restaurant", "hotel", "venue", "map", "route", "direction", "city", "country", "airport", "station"),
     [("name", "title", S), ("address", "address", S), ("city", "city", S), ("country", "country", S), ("latitude", None, N), ("longitude", None, N), ("rating", None, N)]),
    ("media", ("movie", "film", "show", "book", "game", "song", "track", "album", "video", "podcast", "episode", "anime", "music", "channel", "playlist"),
     [("title", "title", S), ("year", None, I), ("genre", "category", S), ("rating", None, N), ("creator", "person_name", S), ("url", "url", S)]),
    ("event", ("event", "meeting", "appointment", "calendar", "schedule", "match", "fixture", "race", "session", "concert"),
     [("title", "title", S), ("starts_at", "datetime", S), ("ends_at", "datetime", S), ("location", "location", S), ("status", "status", S)]),
    ("document", ("document", "doc", "page", "file", "note", "wiki", "content", "documentation", "guide", "manual", "text", "snippet", "example", "spec", "schema", "readme"),
     [("title", "title", S), ("content", "text", S), ("path", "file_path", S), ("updated_at", "datetime", S)]),
    ("chain", ("transaction", "block", "wallet", "balance", "gas", "contract", "nft", "chain", "address", "defi", "pool", "swap"),
     [("hash", "code", S), ("amount", "money", N), ("symbol", "code", S), ("from_address", None, S), ("to_address", None, S), ("timestamp", "datetime", S)]),
    ("metric", ("metric", "stat", "statistic", "analytics", "usage", "score", "count", "index", "indicator", "report", "summary", "status", "health", "performance"),
     [("name", "title", S), ("value", None, N), ("unit", None, S), ("period", None, S), ("updated_at", "datetime", S)]),
    ("result", ("search", "result", "web", "query", "lookup", "answer", "definition", "word", "dictionary", "fact", "info", "information", "detail"),
     [("title", "title", S), ("url", "url", S), ("snippet", "text", S), ("score", None, N)]),
]
DEFAULT_TOPIC: list[F] = [("name", "title", S), ("description", "text", S), ("value", None, N), ("updated_at", "datetime", S)]


def topic_for(texts: list[str]) -> tuple[str, list[F]]:
    """The template whose keywords best match the words of a tool's name and description."""
    toks = [w for t in texts for w in words(t)]
    sing = {w[:-1] if w.endswith("s") and len(w) > 3 else w for w in toks}
    best, best_score = ("", DEFAULT_TOPIC), 0.0
    for name, keys, fields in TOPICS:
        score = 0.0
        for i, k in enumerate(keys):
            if k in sing:
                score += 3.0 if i == 0 else 2.0
        # words of the name count more than the description (first text), the entity's own noun most
        head = {w for w in words(texts[0])} if texts else set()
        score += sum(1.0 for k in keys if k in head)
        first = words(texts[0])[:1] if texts else []
        if first and (first[0] in keys or (first[0].endswith("s") and first[0][:-1] in keys)):
            score += 10.0
        if score > best_score:
            best, best_score = (name, fields), score
    return best


# -- values -----------------------------------------------------------------------------------

class ValueContext:
    """What value generation draws on: the seed's shared world (people, companies), a date anchor."""

    def __init__(self, world: World, now: datetime) -> None:
        self.world = world
        self.now = now


def _slug(text: str) -> str:
    return "-".join(words(text))[:40] or "item"


@lru_cache(maxsize=65536)
def _name_tokens(name: str) -> frozenset[str]:
    return frozenset(words(name))  # memoized: seeding asks for the same field names thousands of times


def value_for(name: str, sem: str | None, shape: dict[str, Any], rng: random.Random, ctx: ValueContext, n: int = 0) -> Any:
    """A realistic value for a field: semantic type first, then the field's name, then its shape.
    The result always fits `shape` (a loosened schema) when it has a type."""
    t = main_type(shape)
    types = json_types(shape)
    if t == "object" and isinstance(shape.get("properties"), dict) and shape["properties"]:
        return {k: value_for(k, None, sub if isinstance(sub, dict) else {}, rng, ctx, n) for k, sub in shape["properties"].items()}
    if t == "array" and isinstance(shape.get("items"), dict) and main_type(shape["items"]) == "object":
        return [value_for(name, None, shape["items"], rng, ctx, n + i) for i in range(rng.randint(1, 2))]
    hint = _hint(name, sem, t, rng, ctx, n)
    if hint is not None and (not types or _type_ok(hint, types)) and ("enum" not in shape or hint in shape["enum"]):
        return hint
    return sample(shape, rng) if shape else (hint if hint is not None else f"{_slug(name)}-{n + 1}")


def _type_ok(v: Any, types: list[str]) -> bool:
    if isinstance(v, bool):
        return "boolean" in types
    if isinstance(v, int):
        return "integer" in types or "number" in types
    if isinstance(v, float):
        return "number" in types
    if isinstance(v, str):
        return "string" in types
    if isinstance(v, list):
        return "array" in types
    if isinstance(v, dict):
        return "object" in types
    return v is None and "null" in types


def _day(ctx: ValueContext, rng: random.Random, lo: int, hi: int) -> datetime:
    return ctx.now + timedelta(days=rng.randint(lo, hi), hours=rng.randint(0, 8), minutes=rng.choice([0, 15, 30, 45]))


_GENERIC_SEMS = {"code", "text", "title", "category", "query", "status", "json", "quantity", "flag"}


def _hint(name: str, sem: str | None, t: str | None, rng: random.Random, ctx: ValueContext, n: int) -> Any:
    toks = _name_tokens(name)
    w = ctx.world
    person = w.contacts[rng.randrange(len(w.contacts))] if w.contacts else None
    if sem in _GENERIC_SEMS and t in ("string", None):
        # a field's own name says more than a generic type: `version` is "1.4.2", not any code
        for keys, gen in _NAME_STR:
            if toks & keys:
                return gen(rng, ctx, person, n)
    if sem:
        gen = _SEM.get(sem)
        if gen is not None:
            v = gen(rng, ctx, person, n)
            if t in ("integer", "number") and not isinstance(v, (int, float)):
                v = None
            if v is not None:
                return v
    if t == "boolean":
        return rng.random() < 0.5
    if t in ("integer", "number"):
        return _number(toks, t, rng)
    if t == "array":
        if toks & {"tags", "tag", "labels", "label", "keywords", "categories", "topics"}:
            return rng.sample(WORDS, 2)
        if toks & {"authors", "assignees", "members", "participants", "attendees", "people"}:
            return [p.name for p in rng.sample(list(w.contacts), 2)] if len(w.contacts) >= 2 else []
        if toks & {"emails", "recipients", "to", "cc", "bcc"}:
            return [person.email] if person else []
        return None
    if t == "object":
        return None  # objects are built field by field in value_for
    # strings by name
    for keys, gen in _NAME_STR:
        if toks & keys:
            return gen(rng, ctx, person, n)
    return None


def _number(toks: set[str], t: str, rng: random.Random) -> float | int:
    integer = t == "integer"
    if toks & {"year"}:
        return rng.randint(1995, 2025)
    if toks & {"lat", "latitude"}:
        v = round(rng.uniform(-60, 70), 4)
        return int(v) if integer else v
    if toks & {"lon", "lng", "longitude"}:
        v = round(rng.uniform(-170, 170), 4)
        return int(v) if integer else v
    if toks & {"price", "amount", "cost", "total", "budget", "salary", "balance", "fee", "revenue", "value"}:
        v = round(rng.uniform(5, 5000), 2)
        return int(v) if integer else v
    if toks & {"percent", "percentage", "pct", "humidity", "probability", "progress"}:
        return rng.randint(0, 100) if integer else round(rng.uniform(0, 100), 1)
    if toks & {"rating", "stars", "score"}:
        return rng.randint(1, 5) if integer else round(rng.uniform(1, 5), 1)
    if toks & {"temperature", "temp"}:
        return rng.randint(-5, 32) if integer else round(rng.uniform(-5, 32), 1)
    if toks & {"age"}:
        return rng.randint(18, 80)
    if toks & {"port"}:
        return rng.choice([80, 443, 3000, 5432, 8080])
    if toks & {"priority", "level", "severity"}:
        return rng.randint(1, 5)
    if toks & {"wind", "speed", "kph", "mph"}:
        return rng.randint(0, 60) if integer else round(rng.uniform(0, 60), 1)
    if toks & {"duration", "minutes", "seconds", "hours", "timeout", "interval"}:
        return rng.randint(5, 120)
    return rng.randint(1, 500) if integer else round(rng.uniform(1, 500), 2)


def _email(rng: random.Random, ctx: ValueContext, person: Any, n: int) -> str:
    return person.email if person is not None else f"user{n}@example.com"


def _person(rng: random.Random, ctx: ValueContext, person: Any, n: int) -> str:
    return person.name if person is not None else f"Person {n}"


def _company(rng: random.Random, ctx: ValueContext, person: Any, n: int) -> str:
    cos = ctx.world.companies
    return cos[rng.randrange(len(cos))].name if cos else f"{rng.choice(COMPANY_A)} Labs"


def _title(rng: random.Random, ctx: ValueContext, person: Any, n: int) -> str:
    return " ".join(rng.sample(WORDS, rng.randint(2, 4))).capitalize()


def _text(rng: random.Random, ctx: ValueContext, person: Any, n: int) -> str:
    s = " ".join(rng.sample(WORDS, rng.randint(6, 10)))
    return s[0].upper() + s[1:] + "."


def _url(rng: random.Random, ctx: ValueContext, person: Any, n: int) -> str:
    cos = ctx.world.companies
    dom = cos[rng.randrange(len(cos))].domain if cos else "example.com"
    return f"https://{dom}/{rng.choice(WORDS)}/{rng.randint(100, 999)}"


def _path(rng: random.Random, ctx: ValueContext, person: Any, n: int) -> str:
    return f"/workspace/{rng.choice(WORDS)}/{rng.choice(WORDS)}_{rng.randint(1, 99)}.{rng.choice(EXTS)}"


_SEM: dict[str, Callable[[random.Random, ValueContext, Any, int], Any]] = {
    "email": _email,
    "person_name": _person,
    "company_name": _company,
    "date": lambda r, c, p, n: _day(c, r, -90, 60).date().isoformat(),
    "datetime": lambda r, c, p, n: format_timestamp(_day(c, r, -90, 60)),
    "money": lambda r, c, p, n: round(r.uniform(10, 5000), 2),
    "currency": lambda r, c, p, n: r.choice(CURRENCIES),
    "url": _url,
    "phone": lambda r, c, p, n: p.phone if p is not None else "+1-555-0100",
    "file_path": _path,
    "text": _text,
    "title": _title,
    "status": lambda r, c, p, n: r.choice(["open", "active", "pending", "closed"]),
    "category": lambda r, c, p, n: r.choice(WORDS),
    "quantity": lambda r, c, p, n: r.randint(1, 50),
    "percent": lambda r, c, p, n: round(r.uniform(0, 100), 1),
    "duration": lambda r, c, p, n: r.randint(5, 240),
    "address": lambda r, c, p, n: f"{r.randint(1, 999)} {r.choice(COMPANY_A)} Street",
    "city": lambda r, c, p, n: r.choice(CITIES)[0],
    "country": lambda r, c, p, n: r.choice(CITIES)[1],
    "location": lambda r, c, p, n: "{}, {}".format(*r.choice(CITIES)),
    "query": lambda r, c, p, n: " ".join(r.sample(WORDS, 2)),
    "flag": lambda r, c, p, n: r.random() < 0.5,
    "code": lambda r, c, p, n: f"{r.choice(WORDS)[:4].upper()}-{r.randint(100, 999)}",
    "json": lambda r, c, p, n: None,
}

_NAME_STR: list[tuple[set[str], Callable[[random.Random, ValueContext, Any, int], Any]]] = [
    ({"symbol", "ticker"}, lambda r, c, p, n: r.choice(TICKERS)),
    ({"username", "login", "handle", "owner", "user"}, lambda r, c, p, n: p.email.split("@")[0].replace(".", "_") if p else f"user{n}"),
    ({"repo", "repository"}, lambda r, c, p, n: f"{r.choice(COMPANY_A).lower()}/{r.choice(WORDS)}"),
    ({"language", "lang"}, lambda r, c, p, n: r.choice(LANGUAGES)),
    ({"version"}, lambda r, c, p, n: f"{r.randint(0, 4)}.{r.randint(0, 12)}.{r.randint(0, 9)}"),
    ({"color", "colour"}, lambda r, c, p, n: r.choice(COLORS)),
    ({"timezone", "tz"}, lambda r, c, p, n: r.choice(TIMEZONES)),
    ({"conditions", "condition", "weather"}, lambda r, c, p, n: r.choice(CONDITIONS)),
    ({"genre"}, lambda r, c, p, n: r.choice(GENRES)),
    ({"ip"}, lambda r, c, p, n: f"10.0.{r.randint(0, 255)}.{r.randint(1, 254)}"),
    ({"domain", "hostname", "host"}, lambda r, c, p, n: c.world.companies[r.randrange(len(c.world.companies))].domain if c.world.companies else "example.com"),
    ({"hash", "sha", "commit", "txid", "tx"}, lambda r, c, p, n: "%040x" % r.getrandbits(160)),
    ({"uuid", "guid"}, lambda r, c, p, n: "{:08x}-{:04x}-4{:03x}-a{:03x}-{:012x}".format(r.getrandbits(32), r.getrandbits(16), r.getrandbits(12), r.getrandbits(12), r.getrandbits(48))),
    ({"address", "wallet"}, lambda r, c, p, n: "0x%040x" % r.getrandbits(160)),
    ({"zip", "postcode", "postal"}, lambda r, c, p, n: f"{r.randint(10000, 99999)}"),
    ({"isbn"}, lambda r, c, p, n: f"978{r.randint(1000000000, 9999999999)}"),
    ({"selector"}, lambda r, c, p, n: f"#{r.choice(WORDS)}"),
    ({"branch"}, lambda r, c, p, n: r.choice(["main", "develop", f"feature/{r.choice(WORDS)}"])),
    ({"unit", "units"}, lambda r, c, p, n: r.choice(["metric", "imperial", "kg", "km", "USD"])),
    ({"period", "interval", "range", "timeframe"}, lambda r, c, p, n: r.choice(["1d", "7d", "30d", "1y"])),
    ({"source"}, lambda r, c, p, n: r.choice(SOURCES)),
    ({"mime", "mimetype", "content_type"}, lambda r, c, p, n: r.choice(["text/plain", "application/json", "image/png"])),
    ({"sql", "query"}, lambda r, c, p, n: " ".join(r.sample(WORDS, 2))),
    ({"code", "script", "expression", "command", "cmd"}, lambda r, c, p, n: f"{r.choice(WORDS)}_{r.randint(1, 9)}()"),
    ({"name", "title", "subject", "label", "heading", "caption"}, _title),
    ({"description", "summary", "body", "content", "text", "message", "note", "notes", "comment", "abstract", "snippet", "bio", "details"}, _text),
    ({"city", "town"}, lambda r, c, p, n: r.choice(CITIES)[0]),
    ({"country"}, lambda r, c, p, n: r.choice(CITIES)[1]),
    ({"location", "place", "region", "area"}, lambda r, c, p, n: "{}, {}".format(*r.choice(CITIES))),
    ({"path", "file", "filename", "filepath", "dir", "directory", "folder"}, _path),
    ({"url", "link", "href", "uri", "website", "homepage", "endpoint"}, _url),
    ({"email", "mail"}, _email),
    ({"phone", "mobile", "tel"}, lambda r, c, p, n: p.phone if p else "+1-555-0100"),
    ({"date", "day", "deadline", "due", "birthday", "since", "until"}, lambda r, c, p, n: _day(c, r, -90, 60).date().isoformat()),
    ({"time", "timestamp", "datetime", "at"}, lambda r, c, p, n: format_timestamp(_day(c, r, -90, 60))),
    ({"status", "state"}, lambda r, c, p, n: r.choice(["open", "active", "pending", "closed"])),
    ({"type", "kind", "category", "tag", "topic", "group"}, lambda r, c, p, n: r.choice(WORDS)),
    ({"currency"}, lambda r, c, p, n: r.choice(CURRENCIES)),
    ({"author", "assignee", "owner", "creator", "sender", "recipient", "manager", "person"}, _person),
    ({"company", "organization", "org", "organisation", "employer", "brand"}, _company),
]
