"""JSON Schema values: the types a schema admits, compiled validators, and values that conform.

Every tool's input and output are JSON Schemas: compiled tools validate calls with
`compile_validator` (whose `InvalidValue` says what is wrong in words: `explain`), verification
checks outputs with it, and argument samplers draw conforming values with `sample` and check
candidates with `fits`. (Reading, normalizing and checking the schemas of specifications is
`compoworld.synthesis.schema`.)
"""

from __future__ import annotations

import copy
import json
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
    """A value does not match a schema.

    The words are made only when the message is read (`fits` rejects many candidates and reads no
    message): `message("argument")` names the offending parts as arguments ("missing required
    argument 'city'"), `str()` names them as fields."""

    def __init__(self, schema: dict[str, Any], value: Any, validator: Any = None, problem: str | None = None) -> None:
        super().__init__()
        self.schema = schema
        self.value = value
        self.validator = validator  # the jsonschema validator that decided, when fastjsonschema could not compile the schema
        self.problem = problem  # what is wrong, when it is known without looking for it

    def __str__(self) -> str:
        return self.message("field")

    def message(self, noun: str = "field") -> str:
        if self.problem is not None:
            return f"{_subject((), noun)} {self.problem}"
        try:
            return explain(self.schema, self.value, noun, self.validator)
        except Exception:  # explaining must not fail where validating did not: say less
            return _no_match(noun)


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
        except fastjsonschema.JsonSchemaValueException:
            raise InvalidValue(defn, value) from None
        except Exception:  # pathological inputs (recursion, huge numbers) are invalid, not crashes
            raise InvalidValue(defn, value, problem="could not be checked: it is nested too deeply or holds too large a number") from None

    return validate


def _always(_: Any) -> bool:
    return True


def validate_once(schema: dict[str, Any], value: Any) -> Any:
    """Validate a value against a schema that validates nothing else (a tool's output in its one
    verification call): jsonschema interprets it under the draft it declares, draft-07 otherwise,
    with the format checks `compile_validator` applies, at a tenth of the cost of generating a
    validator's code. Raises InvalidValue."""
    import jsonschema

    defn = {k: v for k, v in schema.items() if k != "$schema"} if "$schema" in schema else schema
    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft7Validator)
    v = cls(defn, format_checker=_format_checker())
    try:
        ok = v.is_valid(value)
    except Exception:  # pathological inputs (recursion, huge numbers) are invalid, not crashes
        raise InvalidValue(defn, value, problem="could not be checked: it is nested too deeply or holds too large a number") from None
    if not ok:
        raise InvalidValue(defn, value, validator=v)
    return value


def _slow_validator(schema: dict[str, Any]) -> Callable[[Any], Any]:
    import jsonschema

    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    v = cls(schema)

    def validate(value: Any) -> Any:
        if not v.is_valid(value):
            raise InvalidValue(schema, value, validator=v)
        return value

    return validate


# Keywords that constrain nothing, and the Python types of JSON types whose check needs no more than `isinstance`.
_ANNOTATIONS = frozenset({"type", "description", "title", "default", "examples", "$comment", "deprecated", "readOnly", "writeOnly"})
_PLAIN_TYPES: dict[str, type | tuple[type, ...]] = {"string": str, "object": dict, "array": list, "null": type(None),
                                                   "number": (int, float), "integer": int}


def _plainly_fits(schema: dict[str, Any], value: Any) -> bool:
    """True when `schema` says no more than a type (or nothing) and `value` is of it: most field shapes,
    decided without building a validator. False means only "not decided here"."""
    if not schema.keys() <= _ANNOTATIONS:
        return False
    t = schema.get("type")
    if t is None:
        return True
    if isinstance(value, bool):  # a bool is an int to Python, only a boolean to JSON
        return t == "boolean" or isinstance(t, list) and "boolean" in t
    for name in (t,) if isinstance(t, str) else t if isinstance(t, list) else ():
        py = _PLAIN_TYPES.get(name) if isinstance(name, str) else None
        if py is not None and isinstance(value, py):
            return True
    return False


def fits(schema: dict[str, Any], value: Any) -> bool:
    """Whether `value` is valid under `schema`."""
    if type(schema) is dict and _plainly_fits(schema, value):
        return True
    try:
        compile_validator(schema)(value)
        return True
    except InvalidValue:
        return False


# -- what is wrong with a value, in words -----------------------------------------------------

MAX_PROBLEMS = 3  # problems named in one message; the first ones are those nearest the top
_TYPE_WORDS = {"string": "a string", "integer": "an integer", "number": "a number", "boolean": "a boolean (true or false)",
               "array": "an array", "object": "an object", "null": "null"}
_FORMAT_WORDS = {"date-time": "a date and time like 2026-03-01T09:30:00Z", "date": "a date like 2026-03-01",
                 "time": "a time like 09:30:00", "email": "an email address", "idn-email": "an email address",
                 "uri": "a URL like https://example.com/page", "iri": "a URL like https://example.com/page",
                 "uri-reference": "a URL or a relative path", "iri-reference": "a URL or a relative path",
                 "hostname": "a host name like example.com", "idn-hostname": "a host name like example.com",
                 "ipv4": "an IPv4 address like 192.0.2.1", "ipv6": "an IPv6 address like 2001:db8::1",
                 "uuid": "a UUID", "regex": "a valid regular expression", "duration": "an ISO 8601 duration like PT15M",
                 "json-pointer": "a JSON pointer like /a/b", "relative-json-pointer": "a relative JSON pointer",
                 "uri-template": "a URI template"}
_BOUNDS = {"minimum": "at least", "maximum": "at most", "exclusiveMinimum": "greater than", "exclusiveMaximum": "less than"}
_SIZES = {"minLength": ("at least", "characters long"), "maxLength": ("at most", "characters long"),
          "minItems": ("at least", "items"), "maxItems": ("at most", "items"),
          "minProperties": ("at least", "fields"), "maxProperties": ("at most", "fields")}
_FORMAT_CHECKER: list[Any] = []  # built on first use: most runs explain nothing


def explain(schema: dict[str, Any], value: Any, noun: str = "field", validator: Any = None) -> str:
    """What is wrong with `value` under `schema`, in words that name the parts by `noun`
    ("missing required argument 'city'; argument 'units' must be one of "metric", "imperial"
    (got "kelvin")"). `validator`: the jsonschema validator that rejected it (default: draft-07
    with fastjsonschema's format checks, the rules `compile_validator` applies)."""
    import jsonschema

    if validator is None:
        validator = jsonschema.Draft7Validator(schema, format_checker=_format_checker())
    errors = sorted(validator.iter_errors(value), key=lambda e: len(e.absolute_path))  # stable: the top first
    # One problem per part (a wrong type and a missed enum of one argument say one thing twice); the
    # whole value may have several (a missing argument and an unknown one).
    by_part: dict[Any, str] = {}
    for e in errors:
        said = _describe(e, noun)
        by_part.setdefault(tuple(e.absolute_path) or said, said)
    parts = list(dict.fromkeys(by_part.values()))
    if not parts:
        return _no_match(noun)
    more = f"; and {len(parts) - MAX_PROBLEMS} more" if len(parts) > MAX_PROBLEMS else ""
    return "; ".join(parts[:MAX_PROBLEMS]) + more


def _no_match(noun: str) -> str:
    return f"{_subject((), noun)} {'do' if noun == 'argument' else 'does'} not match the schema"


def _format_checker() -> Any:
    """jsonschema's format checks with the patterns fastjsonschema applies, so an explanation
    finds the format problem that made `compile_validator` reject a value."""
    if not _FORMAT_CHECKER:
        import jsonschema
        from fastjsonschema.draft07 import CodeGeneratorDraft07

        checker = jsonschema.FormatChecker(formats=())
        for name, pattern in CodeGeneratorDraft07.FORMAT_REGEXS.items():
            rx = re.compile(pattern)
            checker.checks(name)(lambda v, rx=rx: not isinstance(v, str) or rx.match(v) is not None)
        checker.checks("regex")(_is_regex)
        _FORMAT_CHECKER.append(checker)
    return _FORMAT_CHECKER[0]


def _is_regex(v: Any) -> bool:
    try:
        re.compile(v)
        return True
    except (re.error, TypeError):
        return not isinstance(v, str)


def type_in_words(value: Any) -> str:
    """The JSON type of a value, in words: "an array"."""
    return _TYPE_WORDS[type_of(value)]


def _subject(path: tuple[Any, ...], noun: str) -> str:
    """How a message names a part of the value: "argument 'city'", "field 'items[0].sku'"."""
    if not path:
        return "the arguments" if noun == "argument" else "the value"
    where = ""
    for p in path:
        where += f"[{p}]" if isinstance(p, int) else f".{p}" if where else str(p)
    return f"{noun} '{where}'"


def _show(v: Any) -> str:
    """A value as JSON, cut short."""
    try:
        s = json.dumps(v, ensure_ascii=False, sort_keys=True)
    except (TypeError, ValueError):
        s = str(v)
    return s if len(s) <= 60 else s[:57] + "..."


def _kind(schema: Any) -> str:
    """What a schema admits, in words: "a string", "one of "a", "b"", "an object"."""
    if not isinstance(schema, dict):
        return "any value" if schema is not False else "nothing"
    if "const" in schema:
        return _show(schema["const"])
    if isinstance(schema.get("enum"), list):
        return "one of " + ", ".join(_show(v) for v in schema["enum"])
    if isinstance(schema.get("format"), str) and schema["format"] in _FORMAT_WORDS:
        return _FORMAT_WORDS[schema["format"]]
    types = json_types(schema)
    return " or ".join(_TYPE_WORDS.get(t, t) for t in types) if types else "a value of another form"


def _describe(err: Any, noun: str) -> str:
    """One problem (a jsonschema error) in words."""
    path = tuple(err.absolute_path)
    subject = _subject(path, noun)
    rule, expected, got = err.validator, err.validator_value, err.instance
    field = noun if not path else "field"  # what the parts of an object inside an argument are called
    if rule == "required":
        missing = [r for r in expected if isinstance(got, dict) and r not in got] or list(expected)
        names = ", ".join(f"'{m}'" for m in missing)
        s = "s" if len(missing) > 1 else ""
        return f"missing required {noun}{s} {names}" if not path else f"{subject} is missing required field{s} {names}"
    if rule == "additionalProperties" and isinstance(got, dict):
        known = set(err.schema.get("properties") or {})
        patterns = list(err.schema.get("patternProperties") or {})
        extra = [k for k in got if k not in known and not any(re.search(p, k) for p in patterns)]
        names = ", ".join(f"'{k}'" for k in extra)
        s = "s" if len(extra) > 1 else ""
        takes = f"the {field}s are: {', '.join(sorted(known))}" if known else f"there are no {field}s"
        return f"unknown {field}{s} {names} ({takes})" if not path else f"{subject} has unknown field{s} {names} ({takes})"
    if rule == "type" and isinstance(err.schema.get("enum"), list):  # the values it may take say more than their type
        rule, expected = "enum", err.schema["enum"]
    if rule == "type":
        types = [expected] if isinstance(expected, str) else list(expected)
        return f"{subject} must be {' or '.join(_TYPE_WORDS.get(t, t) for t in types)} (got {_show(got)})"
    if rule == "enum":
        return f"{subject} must be one of {', '.join(_show(v) for v in expected)} (got {_show(got)})"
    if rule == "const":
        return f"{subject} must be {_show(expected)} (got {_show(got)})"
    if rule in _BOUNDS:
        return f"{subject} must be {_BOUNDS[rule]} {_show(expected)} (got {_show(got)})"
    if rule == "multipleOf":
        return f"{subject} must be a multiple of {_show(expected)} (got {_show(got)})"
    if rule in _SIZES:
        how, unit = _SIZES[rule]
        verb = "be" if unit == "characters long" else "have"
        has = _show(got) if isinstance(got, str) else f"{len(got)} {unit}" if isinstance(got, (list, dict)) else _show(got)
        return f"{subject} must {verb} {how} {expected} {unit} (got {has})"
    if rule == "uniqueItems":
        return f"{subject} must not hold the same item twice"
    if rule == "pattern":
        return f"{subject} must match the pattern {expected} (got {_show(got)})"
    if rule == "format":
        return f"{subject} must be {_FORMAT_WORDS.get(expected, f'in the {expected} format')} (got {_show(got)})"
    if rule in ("anyOf", "oneOf"):
        if rule == "oneOf" and sum(fits(s, got) for s in expected if isinstance(s, dict)) > 1:
            return f"{subject} matches more than one of its allowed forms, and must match exactly one (got {_show(got)})"
        kinds = list(dict.fromkeys(_kind(s) for s in expected))
        return f"{subject} must be {' or '.join(kinds)} (got {_show(got)})"
    if rule in ("dependencies", "dependentRequired") and isinstance(got, dict):
        for given, needs in expected.items():
            lacking = [n for n in needs if n not in got] if given in got and isinstance(needs, list) else []
            if lacking:
                names = ", ".join(f"'{n}'" for n in lacking)
                where = "" if not path else f"in {subject}, "
                return f"{where}{field} '{given}' needs {field}{'s' if len(lacking) > 1 else ''} {names} as well"
    if rule == "contains":
        return f"{subject} must hold at least one item that is {_kind(expected)}"
    if rule == "propertyNames":
        return f"{subject} has a field name that is not allowed"
    if rule == "not":
        return f"{subject} is not an allowed value (got {_show(got)})"
    return f"{subject} is not an accepted value (got {_show(got)})"


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
