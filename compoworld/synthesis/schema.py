"""JSON Schema helpers: meta-schema checks, `$ref` resolution and loop detection, normalization of
tool input schemas, loosened record schemas, compiled validators, and schema-conforming sample values."""

from __future__ import annotations

import copy
import random
import re
import string
from typing import Any, Callable

import orjson

_SCHEMA_KEYS_WITH_SUBSCHEMA = ("items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames",
                               "additionalItems", "unevaluatedItems", "unevaluatedProperties")
_SCHEMA_KEYS_WITH_SUBSCHEMA_LIST = ("anyOf", "oneOf", "allOf", "prefixItems")
_SCHEMA_KEYS_WITH_SUBSCHEMA_MAP = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")


class SchemaProblem(Exception):
    """A schema that cannot be used; `code` is the rejection reason recorded for the tool."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(f"{code}: {detail}")
        self.code = code
        self.detail = detail


def canonical(value: Any) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


# -- meta-schema -----------------------------------------------------------------------------

_META: dict[str, Any] = {}


def _meta_validator(schema: dict[str, Any]) -> Any:
    import jsonschema

    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    meta = _META.get(cls.__name__)
    if meta is None:
        meta = _META[cls.__name__] = cls(cls.META_SCHEMA)
    return meta


_FAST_META: dict[str, Callable[[Any], Any] | None] = {}
_DRAFT_OF = {
    "https://json-schema.org/draft/2020-12/schema": "2020-12",
    "http://json-schema.org/draft-07/schema": "7",
    "http://json-schema.org/draft-06/schema": "6",
    "http://json-schema.org/draft-04/schema": "4",
}


_DROP_META = ("format", "$id", "$schema", "$vocabulary", "$dynamicAnchor", "$comment", "default", "deprecated", "title", "examples")


def _strip_formats(node: Any) -> Any:
    """A meta-schema fastjsonschema compiles: boolean subschemas spelled out, format assertions and
    annotations dropped (patterns are checked separately)."""
    if node is True:
        return {}
    if node is False:
        return {"not": {}}
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for k, v in node.items():
        if k in _DROP_META:
            continue
        if k in ("properties", "definitions", "$defs", "patternProperties", "dependentSchemas") and isinstance(v, dict):
            out[k] = {name: _strip_formats(sub) for name, sub in v.items()}
        elif k in ("allOf", "anyOf", "oneOf") and isinstance(v, list):
            out[k] = [_strip_formats(sub) for sub in v]
        elif k in ("items", "additionalProperties", "not", "propertyNames", "contains", "if", "then", "else", "additionalItems"):
            out[k] = [_strip_formats(sub) for sub in v] if isinstance(v, list) else _strip_formats(v)
        else:
            out[k] = v
    return out


def _combined_2020_12() -> dict[str, Any]:
    """The 2020-12 meta-schema as one self-contained document: each vocabulary's keywords merged and
    `$dynamicRef: #meta` bound to the root, which is what it resolves to when checking a schema."""
    from jsonschema_specifications import REGISTRY

    base = "https://json-schema.org/draft/2020-12/"
    root = REGISTRY[base + "schema"].contents
    props: dict[str, Any] = {}
    defs: dict[str, Any] = {}

    def rewrite(node: Any, vocab: str) -> Any:
        if isinstance(node, dict):
            out = {}
            for k, v in node.items():
                if k == "$dynamicRef" and isinstance(v, str):
                    out["$ref"] = "#"
                elif k == "$ref" and isinstance(v, str):
                    if v.startswith("#/$defs/"):
                        out["$ref"] = f"#/definitions/{vocab}_{v.split('/')[-1]}"
                    elif v.startswith("meta/"):
                        target, _, frag = v.partition("#")
                        out["$ref"] = f"#/definitions/{target.split('/')[-1]}_{frag.split('/')[-1]}"
                    else:
                        out["$ref"] = v
                else:
                    out[k] = rewrite(v, vocab)
            return out
        if isinstance(node, list):
            return [rewrite(v, vocab) for v in node]
        return node

    for ref in root["allOf"]:
        vocab = ref["$ref"].split("/")[-1]
        sub = REGISTRY[base + ref["$ref"]].contents
        props.update(rewrite(sub.get("properties", {}), vocab))
        for name, d in (sub.get("$defs") or {}).items():
            defs[f"{vocab}_{name}"] = rewrite(d, vocab)
    props.update(rewrite(root.get("properties", {}), "schema"))
    return _strip_formats({"type": ["object", "boolean"], "properties": props, "definitions": defs})


def _fast_meta(draft: str) -> Callable[[Any], Any] | None:
    if draft not in _FAST_META:
        try:
            import fastjsonschema
            import jsonschema

            if draft == "2020-12":
                meta = _combined_2020_12()
            else:
                cls = {"7": jsonschema.Draft7Validator, "6": jsonschema.Draft6Validator, "4": jsonschema.Draft4Validator}[draft]
                meta = _strip_formats(cls.META_SCHEMA)
                meta["$schema"] = "http://json-schema.org/draft-0%s/schema#" % draft
            _FAST_META[draft] = fastjsonschema.compile(meta, use_default=False)
        except Exception:
            _FAST_META[draft] = None
    return _FAST_META[draft]


def meta_errors(schema: Any) -> str | None:
    """Why `schema` is not a valid JSON Schema under its declared draft (2020-12 when undeclared).

    A compiled meta-schema answers the common case (valid) in microseconds; jsonschema's own
    meta-schema check gives the verdict and the message whenever the fast path is unsure."""
    import jsonschema

    if isinstance(schema, bool):
        return None
    if not isinstance(schema, dict):
        return f"a schema must be an object, got {type(schema).__name__}"
    declared = schema.get("$schema", "https://json-schema.org/draft/2020-12/schema")
    draft = _DRAFT_OF.get(declared.rstrip("#") if isinstance(declared, str) else "")
    fast = _fast_meta(draft) if draft else None
    if fast is not None:
        try:
            fast(schema)
            bad = _bad_pattern(schema)
            return f"pattern {bad!r} is not a valid regular expression" if bad else None
        except Exception:
            pass
    try:
        err = jsonschema.exceptions.best_match(_meta_validator(schema).iter_errors(schema))
    except Exception as exc:  # a broken $schema URI or a metaschema the library cannot load
        return f"cannot check schema: {type(exc).__name__}: {exc}"
    if err is not None:
        where = "/".join(str(p) for p in err.absolute_path) or "(root)"
        return f"at {where}: {err.message[:200]}"
    bad = _bad_pattern(schema)
    return f"pattern {bad!r} is not a valid regular expression" if bad else None


def _bad_pattern(node: Any) -> str | None:
    for sub in _walk(node):
        pats = [sub["pattern"]] if isinstance(sub.get("pattern"), str) else []
        pats += list((sub.get("patternProperties") or {}).keys()) if isinstance(sub.get("patternProperties"), dict) else []
        for p in pats:
            try:
                re.compile(p)
            except re.error:
                return p
    return None


def _walk(node: Any) -> Any:
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


# -- $ref -------------------------------------------------------------------------------------

def _pointer(root: Any, ref: str) -> Any:
    if ref == "#":
        return root
    if not ref.startswith("#/"):
        raise SchemaProblem("unresolvable_ref", f"$ref {ref!r} is not a local reference")
    node = root
    for raw in ref[2:].split("/"):
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            raise SchemaProblem("unresolvable_ref", f"$ref {ref!r} does not resolve")
    return node


def inline_refs(schema: dict[str, Any], max_nodes: int = 20000) -> dict[str, Any]:
    """A self-contained copy with every local `$ref` replaced by its target.

    Raises SchemaProblem('ref_loop') when a reference leads back to itself (a recursive schema
    cannot be inlined, and agents' function-calling formats do not accept it), 'unresolvable_ref'
    for refs that point nowhere or outside the document, 'schema_too_large' for reference bombs."""
    budget = [max_nodes]

    def resolve(node: Any, active: tuple[str, ...]) -> Any:
        budget[0] -= 1
        if budget[0] < 0:
            raise SchemaProblem("schema_too_large", f"more than {max_nodes} nodes once references are inlined")
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str):
                if ref in active:
                    raise SchemaProblem("ref_loop", f"$ref {ref!r} refers back to itself ({' -> '.join(active + (ref,))})")
                target = _pointer(schema, ref)
                merged = dict(target) if isinstance(target, dict) else {}
                merged.update({k: v for k, v in node.items() if k != "$ref"})
                return resolve(merged, active + (ref,))
            return {k: resolve(v, active) for k, v in node.items() if k not in ("$defs", "definitions")}
        if isinstance(node, list):
            return [resolve(v, active) for v in node]
        return node

    return resolve(schema, ())


# -- normalization ----------------------------------------------------------------------------

def normalize_input_schema(raw: Any) -> dict[str, Any]:
    """The exposed input schema of a tool: a self-contained object schema that rejects unknown
    parameters unless the original explicitly allowed them."""
    if raw is None:
        raw = {"type": "object", "properties": {}}
    if not isinstance(raw, dict):
        raise SchemaProblem("invalid_schema", f"inputSchema must be an object, got {type(raw).__name__}")
    problem = meta_errors(raw)
    if problem:
        raise SchemaProblem("invalid_schema", problem)
    schema = inline_refs(raw)  # keeps a declared $schema: the schema stays valid under the draft it was written for
    schema.pop("$id", None)
    if isinstance(schema.get("title"), str):
        schema.pop("title")
    typ = schema.get("type")
    if typ is None:
        schema["type"] = "object"
    elif typ != "object" and not (isinstance(typ, list) and "object" in typ):
        raise SchemaProblem("invalid_schema", f"input schema must describe an object, not {typ!r}")
    else:
        schema["type"] = "object"
    props = schema.get("properties")
    if props is None:
        props = schema["properties"] = {}
    if not isinstance(props, dict):
        raise SchemaProblem("invalid_schema", "properties must be an object")
    for k in list(props):
        if not isinstance(props[k], (dict, bool)):
            raise SchemaProblem("invalid_schema", f"property {k!r} has a non-schema value")
        if props[k] is True:
            props[k] = {}
    req = schema.get("required")
    if req is not None:
        if not isinstance(req, list) or not all(isinstance(r, str) for r in req):
            raise SchemaProblem("invalid_schema", "required must be a list of names")
        schema["required"] = list(dict.fromkeys(req))
        for r in schema["required"]:
            props.setdefault(r, {})  # required but undeclared: allow any value rather than make the tool uncallable
    if "additionalProperties" not in schema and "patternProperties" not in schema:
        schema["additionalProperties"] = False
    return schema


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
        x = _type_of(v)
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


def _type_of(v: Any) -> str:
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


_KEEP_LOOSE = ("type", "enum", "items", "properties", "anyOf", "oneOf", "description")


def loosen(schema: Any, depth: int = 0) -> dict[str, Any]:
    """The shape of values a parameter admits, without the constraints (patterns, lengths, bounds,
    required keys): what a record field that stores those values may contain."""
    if not isinstance(schema, dict) or depth > 6:
        return {}
    out: dict[str, Any] = {}
    types = json_types(schema)
    if types:
        out["type"] = types[0] if len(types) == 1 else types
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        out["enum"] = list(schema["enum"])
    elif "const" in schema:
        out["enum"] = [schema["const"]]
    if isinstance(schema.get("items"), dict):
        out["items"] = loosen(schema["items"], depth + 1)
    if isinstance(schema.get("properties"), dict):
        out["properties"] = {k: loosen(v, depth + 1) for k, v in schema["properties"].items()}
    for combo in ("anyOf", "oneOf"):
        if isinstance(schema.get(combo), list) and "type" not in out:
            out["anyOf"] = [loosen(s, depth + 1) for s in schema[combo]]
    if "enum" in out and "type" not in out:
        out["type"] = sorted({_type_of(v) for v in out["enum"]})
        if len(out["type"]) == 1:
            out["type"] = out["type"][0]
    return out


def nullable(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema` or null."""
    if not schema or schema == {}:
        return {}
    if "anyOf" in schema and "type" not in schema:
        return {**schema, "anyOf": schema["anyOf"] + [{"type": "null"}]}
    out = dict(schema)
    t = out.get("type")
    if isinstance(t, str):
        out["type"] = [t, "null"] if t != "null" else t
    elif isinstance(t, list):
        out["type"] = t if "null" in t else t + ["null"]
    if "enum" in out and None not in out["enum"]:
        out["enum"] = out["enum"] + [None]
    return out


def merge_shapes(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """A shape that admits values of both `a` and `b`."""
    if not a or not b:
        return {}
    if canonical(a) == canonical(b):
        return a
    ta, tb = json_types(a), json_types(b)
    if ta and tb and "enum" not in a and "enum" not in b and not any(k in a or k in b for k in ("items", "properties", "anyOf")):
        types = list(dict.fromkeys(ta + tb))
        return {"type": types[0] if len(types) == 1 else types}
    return {"anyOf": [a, b]}


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
    key = canonical(schema)
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
    for sub in _walk(schema):
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
                if _fits(schema, v):
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
        if cand is not None and (t is None or _type_of(cand) == t or (t == "number" and _type_of(cand) == "integer")) and _fits(schema, cand):
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


def _fits(schema: dict[str, Any], value: Any) -> bool:
    try:
        compile_validator(schema)(value)
        return True
    except InvalidValue:
        return False


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
