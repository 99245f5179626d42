"""JSON Schema values: the types a schema admits, compiled validators, and values that conform.

Every tool's input and output are JSON Schemas: compiled tools validate calls with
`compile_validator`, verification checks outputs with it, and argument samplers draw conforming
values with `sample` and check candidates with `fits`. (Reading, normalizing and checking the
schemas of specifications is `compoworld.synthesis.schema`.)
"""

from __future__ import annotations

import copy
import random
import re
import string
from typing import Any, Callable

from compoworld.canonical import canonical_bytes

_SCHEMA_KEYS_WITH_SUBSCHEMA = ("items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames",
                               "additionalItems", "unevaluatedItems", "unevaluatedProperties")
_SCHEMA_KEYS_WITH_SUBSCHEMA_LIST = ("anyOf", "oneOf", "allOf", "prefixItems")
_SCHEMA_KEYS_WITH_SUBSCHEMA_MAP = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")


def walk(node: Any) -> Any:
    """Every subschema (dict) of a schema, depth-first."""
    stack = [node]
    while stack:
        cur = stack.pop()
        if not isinstance(cur, dict):
            continue
        yield cur
        for k in _SCHEMA_KEYS_WITH_SUBSCHEMA:
            if isinstance(cur.get(k), dict):
                stack.append(cur[k])
        for k in _SCHEMA_KEYS_WITH_SUBSCHEMA_LIST:
            if isinstance(cur.get(k), list):
                stack.extend(cur[k])
        if isinstance(cur.get("items"), list):
            stack.extend(cur["items"])
        for k in _SCHEMA_KEYS_WITH_SUBSCHEMA_MAP:
            if isinstance(cur.get(k), dict):
                stack.extend(cur[k].values())


def json_types(schema: Any) -> list[str]:
    """The JSON types a (sub)schema admits, looking through anyOf/oneOf/enum/const; [] = any."""
    if not isinstance(schema, dict):
        return []
    t = schema.get("type")
    if isinstance(t, str):
        return [t]
    if isinstance(t, list):
        return [x for x in t if isinstance(x, str)]
    out: list[str] = []
    for combo in ("anyOf", "oneOf"):
        for sub in schema.get(combo) or []:
            for x in json_types(sub):
                if x not in out:
                    out.append(x)
    if out:
        return out
    vals = schema.get("enum") if isinstance(schema.get("enum"), list) else ([schema["const"]] if "const" in schema else [])
    for v in vals:
        x = type_of(v)
        if x not in out:
            out.append(x)
    if not out and isinstance(schema.get("properties"), dict):
        return ["object"]
    if not out and "items" in schema:
        return ["array"]
    return out


def main_type(schema: Any) -> str | None:
    ts = [t for t in json_types(schema) if t != "null"]
    return ts[0] if ts else None


def type_of(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int):
        return "integer"
    if isinstance(v, float):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    return "object"


# -- validators -------------------------------------------------------------------------------

_KNOWN_FORMATS = {"date-time", "email", "hostname", "ipv4", "ipv6", "regex", "uri", "idn-email", "date", "time", "uuid",
                  "json-pointer", "relative-json-pointer", "uri-reference", "iri", "iri-reference", "uri-template", "duration",
                  "idn-hostname"}
_COMPILED: dict[bytes, Callable[[Any], Any]] = {}


class InvalidValue(Exception):
    """A value does not match a schema; the message names the offending location."""


def compile_validator(schema: dict[str, Any]) -> Callable[[Any], Any]:
    """A fast validator for `schema` (fastjsonschema, memoized by canonical JSON; jsonschema when
    the schema uses something fastjsonschema cannot compile). Raises InvalidValue."""
    key = canonical_bytes(schema)
    fn = _COMPILED.get(key)
    if fn is not None:
        return fn
    fn = _build_validator(schema)
    if len(_COMPILED) > 20000:
        _COMPILED.clear()
    _COMPILED[key] = fn
    return fn


def _build_validator(schema: dict[str, Any]) -> Callable[[Any], Any]:
    import fastjsonschema

    formats = {}
    for sub in walk(schema):
        f = sub.get("format")
        if isinstance(f, str) and f not in _KNOWN_FORMATS:
            formats[f] = _always
    defn = {k: v for k, v in schema.items() if k != "$schema"}
    try:
        fast = fastjsonschema.compile(defn, use_default=False, formats=formats, detailed_exceptions=False)
    except Exception:
        return _slow_validator(schema)

    def validate(value: Any) -> Any:
        try:
            return fast(value)
        except fastjsonschema.JsonSchemaValueException as exc:
            raise InvalidValue(_fast_message(exc)) from None
        except Exception as exc:  # pathological inputs (recursion, huge numbers) are invalid, not crashes
            raise InvalidValue(f"value could not be validated ({type(exc).__name__})") from None

    return validate


def _always(_: Any) -> bool:
    return True


def _fast_message(exc: Any) -> str:
    msg = str(getattr(exc, "message", exc))
    return re.sub(r"^data\.?", "", msg).strip() or msg


def _slow_validator(schema: dict[str, Any]) -> Callable[[Any], Any]:
    import jsonschema

    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    v = cls(schema)

    def validate(value: Any) -> Any:
        err = jsonschema.exceptions.best_match(v.iter_errors(value))
        if err is not None:
            where = ".".join(str(p) for p in err.absolute_path)
            raise InvalidValue(f"{where + ' ' if where else ''}{err.message[:200]}")
        return value

    return validate


def fits(schema: dict[str, Any], value: Any) -> bool:
    """Whether `value` is valid under `schema`."""
    try:
        compile_validator(schema)(value)
        return True
    except InvalidValue:
        return False


# -- sample values ----------------------------------------------------------------------------

def sample(schema: Any, rng: random.Random, hint: Callable[[], Any] | None = None, depth: int = 0, required_only: bool = False) -> Any:
    """A value that satisfies `schema` (best effort), preferring `hint()` when it does."""
    if not isinstance(schema, dict):
        return hint() if hint else "value"
    if "const" in schema:
        return copy.deepcopy(schema["const"])
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        opts = [v for v in schema["enum"] if v is not None] or schema["enum"]
        return copy.deepcopy(opts[rng.randrange(len(opts))])
    for combo in ("oneOf", "anyOf"):
        subs = [s for s in schema.get(combo) or [] if isinstance(s, dict) and json_types(s) != ["null"]]
        if subs and depth < 8:
            base = {k: v for k, v in schema.items() if k != combo}
            first = None
            for sub in subs:  # the first branch whose sample satisfies the whole schema
                merged = _merge_schemas(base, sub)
                v = sample(merged, rng, hint, depth + 1, required_only)
                first = v if first is None else first
                if fits(schema, v):
                    return v
            return first
    if isinstance(schema.get("allOf"), list):
        merged: dict[str, Any] = {k: v for k, v in schema.items() if k != "allOf"}
        for sub in schema["allOf"]:
            if isinstance(sub, dict):
                for k, v in sub.items():
                    if k == "properties" and isinstance(v, dict):
                        merged["properties"] = {**merged.get("properties", {}), **v}
                    elif k == "required" and isinstance(v, list):
                        merged["required"] = list(dict.fromkeys(merged.get("required", []) + v))
                    else:
                        merged.setdefault(k, v)
        return sample(merged, rng, hint, depth + 1, required_only)
    t = main_type(schema)
    if hint is not None:
        cand = hint()
        if cand is not None and (t is None or type_of(cand) == t or (t == "number" and type_of(cand) == "integer")) and fits(schema, cand):
            return cand
    if t == "string" or t is None:
        return _sample_string(schema, rng)
    if t == "integer":
        return int(_sample_number(schema, rng, integer=True))
    if t == "number":
        return _sample_number(schema, rng, integer=False)
    if t == "boolean":
        return rng.random() < 0.5
    if t == "null":
        return None
    if t == "array":
        items = schema.get("items") if isinstance(schema.get("items"), dict) else {"type": "string"}
        lo = int(schema.get("minItems", 1) or 0)
        hi = int(schema.get("maxItems", max(lo, 2)))
        n = max(lo, min(hi, max(1, lo)))
        out = [sample(items, rng, None, depth + 1) for _ in range(n)] if depth < 5 else []
        if schema.get("uniqueItems"):
            seen: list[Any] = []
            for v in out:
                if v not in seen:
                    seen.append(v)
            out = seen
        return out
    if t == "object":
        props = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
        req = [r for r in schema.get("required") or [] if isinstance(r, str)]
        out_obj: dict[str, Any] = {}
        if depth < 5:
            for k in req:
                out_obj[k] = sample(props.get(k, {}), rng, None, depth + 1)
            if not required_only:
                for k in list(props)[:3]:
                    if k not in out_obj:
                        out_obj[k] = sample(props[k], rng, None, depth + 1)
        return out_obj
    return "value"


def _merge_schemas(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    out = dict(a)
    for k, v in b.items():
        if k == "properties" and isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = {**out[k], **v}
        elif k == "required" and isinstance(v, list) and isinstance(out.get(k), list):
            out[k] = list(dict.fromkeys(out[k] + v))
        else:
            out[k] = v
    return out


_FORMAT_SAMPLES = {
    "email": lambda r: f"user{r.randint(1, 99)}@example.com",
    "idn-email": lambda r: f"user{r.randint(1, 99)}@example.com",
    "uri": lambda r: f"https://example.com/item/{r.randint(1, 999)}",
    "url": lambda r: f"https://example.com/item/{r.randint(1, 999)}",
    "uri-reference": lambda r: f"https://example.com/ref/{r.randint(1, 999)}",
    "iri": lambda r: f"https://example.com/item/{r.randint(1, 999)}",
    "date": lambda r: f"2026-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}",
    "date-time": lambda r: f"2026-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}T{r.randint(0, 23):02d}:00:00Z",
    "time": lambda r: f"{r.randint(0, 23):02d}:{r.randint(0, 59):02d}:00",
    "uuid": lambda r: "{:08x}-{:04x}-4{:03x}-8{:03x}-{:012x}".format(r.getrandbits(32), r.getrandbits(16), r.getrandbits(12), r.getrandbits(12), r.getrandbits(48)),
    "ipv4": lambda r: f"10.{r.randint(0, 255)}.{r.randint(0, 255)}.{r.randint(1, 254)}",
    "ipv6": lambda r: f"2001:db8::{r.randint(1, 9999):x}",
    "hostname": lambda r: f"host{r.randint(1, 99)}.example.com",
    "duration": lambda r: f"PT{r.randint(1, 59)}M",
}


def _sample_string(schema: dict[str, Any], rng: random.Random) -> str:
    fmt = schema.get("format")
    if isinstance(fmt, str) and fmt in _FORMAT_SAMPLES:
        s = _FORMAT_SAMPLES[fmt](rng)
    elif isinstance(schema.get("pattern"), str):
        lo_len, hi_len = int(schema.get("minLength", 0) or 0), schema.get("maxLength")
        s = ""
        for _ in range(8):
            s = regex_sample(schema["pattern"], rng)
            if len(s) >= lo_len and (not isinstance(hi_len, int) or len(s) <= hi_len):
                return s
    else:
        s = "".join(rng.choice(string.ascii_lowercase) for _ in range(6))
    lo = int(schema.get("minLength", 0) or 0)
    hi = schema.get("maxLength")
    if len(s) < lo:
        s = s + "x" * (lo - len(s))
    if isinstance(hi, int) and len(s) > hi:
        s = s[:hi]
    return s


def _sample_number(schema: dict[str, Any], rng: random.Random, integer: bool) -> float:
    lo = schema.get("minimum")
    hi = schema.get("maximum")
    xlo, xhi = schema.get("exclusiveMinimum"), schema.get("exclusiveMaximum")
    if isinstance(xlo, (int, float)) and not isinstance(xlo, bool):
        lo = xlo + (1 if integer else 0.5) if lo is None or xlo >= lo else lo
    if isinstance(xhi, (int, float)) and not isinstance(xhi, bool):
        hi = xhi - (1 if integer else 0.5) if hi is None or xhi <= hi else hi
    lo = lo if isinstance(lo, (int, float)) and not isinstance(lo, bool) else (1 if hi is None or hi >= 1 else hi - 10)
    hi = hi if isinstance(hi, (int, float)) and not isinstance(hi, bool) else max(lo, 1) + 10
    if hi < lo:
        hi = lo
    if integer:
        import math

        a, b = math.ceil(lo), math.floor(hi)
        v: float = rng.randint(a, b) if a <= b else a
    else:
        v = round(rng.uniform(lo, hi), 2)
        v = min(max(v, lo), hi)
    m = schema.get("multipleOf")
    if isinstance(m, (int, float)) and m > 0 and not isinstance(m, bool):
        v = round(v / m) * m
        if v < lo:
            v += m
        if integer:
            v = int(v)
    return v


# -- regex sampling ---------------------------------------------------------------------------

def regex_sample(pattern: str, rng: random.Random) -> str:
    """A string matching `pattern` (search semantics, as JSON Schema uses), or '' when unsure."""
    try:
        import re._parser as sre_parse  # type: ignore[import-not-found]
        from re import _constants as c  # type: ignore[attr-defined]

        parsed = sre_parse.parse(pattern)
    except Exception:
        return ""

    def gen(items: Any, depth: int = 0) -> str:
        out = []
        for op, av in items:
            if depth > 20:
                break
            if op is c.LITERAL:
                out.append(chr(av))
            elif op is c.NOT_LITERAL:
                out.append("a" if chr(av) != "a" else "b")
            elif op is c.ANY:
                out.append("a")
            elif op is c.IN:
                out.append(_in_char(av, rng, c))
            elif op in (c.MAX_REPEAT, c.MIN_REPEAT, getattr(c, "POSSESSIVE_REPEAT", None)):
                lo, hi, sub = av
                hi = lo + 3 if hi == c.MAXREPEAT else hi
                n = rng.randint(lo, max(lo, min(hi, lo + 3)))
                out.extend(gen(sub, depth + 1) for _ in range(n))
            elif op is c.SUBPATTERN:
                out.append(gen(av[-1], depth + 1))
            elif op is c.BRANCH:
                branches = av[1]
                out.append(gen(branches[rng.randrange(len(branches))], depth + 1))
            elif op is c.CATEGORY:
                out.append(_category_char(av, c))
            elif op in (c.AT, c.ASSERT, c.ASSERT_NOT):
                continue
            elif op is c.GROUPREF:
                continue
        return "".join(out)

    try:
        s = gen(parsed)
        return s if re.search(pattern, s) else ""
    except Exception:
        return ""


def _category_char(cat: Any, c: Any) -> str:
    if cat is c.CATEGORY_DIGIT:
        return "7"
    if cat is c.CATEGORY_SPACE:
        return " "
    if cat is c.CATEGORY_WORD:
        return "w"
    if cat is c.CATEGORY_NOT_DIGIT:
        return "a"
    if cat is c.CATEGORY_NOT_SPACE:
        return "a"
    return "-"


def _in_char(items: Any, rng: random.Random, c: Any) -> str:
    negate = any(op is c.NEGATE for op, _ in items)
    if negate:
        banned = set()
        for op, av in items:
            if op is c.LITERAL:
                banned.add(chr(av))
            elif op is c.RANGE:
                banned.update(chr(x) for x in range(av[0], min(av[1], av[0] + 300) + 1))
        for ch in "abcxyz0123456789":
            if ch not in banned:
                return ch
        return "~"
    choices = []
    for op, av in items:
        if op is c.LITERAL:
            choices.append(chr(av))
        elif op is c.RANGE:
            choices.append(chr(rng.randint(av[0], av[1])))
        elif op is c.CATEGORY:
            choices.append(_category_char(av, c))
    return rng.choice(choices) if choices else "a"
