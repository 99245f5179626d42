"""JSON Schema helpers for specifications: meta-schema checks, `$ref` resolution and loop detection,
normalization of tool input schemas, loosened and merged record shapes. (Validating and sampling
values against a schema is `compoworld.services.json_schema`.)"""

from __future__ import annotations

import re
from typing import Any, Callable

from compoworld.canonical import canonical_bytes
from compoworld.services.json_schema import json_types, main_type, type_of, walk


class SchemaProblem(Exception):
    """A schema that cannot be used; `code` is the rejection reason recorded for the tool."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(f"{code}: {detail}")
        self.code = code
        self.detail = detail


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


_META_VERDICTS: dict[bytes, str | None] = {}


def meta_errors(schema: Any) -> str | None:
    """Why `schema` is not a valid JSON Schema under its declared draft (2020-12 when undeclared).

    A compiled meta-schema answers the common case (valid); jsonschema's own meta-schema check gives
    the verdict and the message whenever the fast path is unsure. Verdicts are memoized by the
    schema's canonical JSON: a corpus repeats its schemas (and an input schema is checked when it is
    normalized and again when its service is verified)."""
    if isinstance(schema, bool):
        return None
    if not isinstance(schema, dict):
        return f"a schema must be an object, got {type(schema).__name__}"
    key = canonical_bytes(schema)
    if key not in _META_VERDICTS:
        if len(_META_VERDICTS) > 50000:
            _META_VERDICTS.clear()
        _META_VERDICTS[key] = _meta_errors(schema)
    return _META_VERDICTS[key]


def _meta_errors(schema: dict[str, Any]) -> str | None:
    import jsonschema

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
    for sub in walk(node):
        pats = [sub["pattern"]] if isinstance(sub.get("pattern"), str) else []
        pats += list((sub.get("patternProperties") or {}).keys()) if isinstance(sub.get("patternProperties"), dict) else []
        for p in pats:
            try:
                re.compile(p)
            except re.error:
                return p
    return None


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


# Times a recursive reference is followed before it stops. More would nest required fields past the
# depth to which `json_schema.sample` fills them (5), and generated arguments would fail the schema.
RECURSION_LEVELS = 2


def inline_refs(schema: dict[str, Any], max_nodes: int = 20000) -> dict[str, Any]:
    """A self-contained copy with every local `$ref` replaced by its target.

    Agents' function-calling formats do not take references, so a recursive schema (a tree whose
    `children` items refer to the node) is unrolled: a reference is followed `RECURSION_LEVELS`
    times, which validate exactly, and below that it becomes the node's type alone (any object).
    Raises SchemaProblem 'unresolvable_ref' for refs that point nowhere or outside the document,
    'schema_too_large' for reference bombs."""
    budget = [max_nodes]

    def resolve(node: Any, active: tuple[str, ...]) -> Any:
        budget[0] -= 1
        if budget[0] < 0:
            raise SchemaProblem("schema_too_large", f"more than {max_nodes} nodes once references are inlined")
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str):
                target = _pointer(schema, ref)
                merged = dict(target) if isinstance(target, dict) else {}
                if active.count(ref) >= RECURSION_LEVELS:
                    merged = _type_only(merged)
                merged.update({k: v for k, v in node.items() if k != "$ref"})
                return resolve(merged, active + (ref,))
            return {k: resolve(v, active) for k, v in node.items() if k not in ("$defs", "definitions")}
        if isinstance(node, list):
            return [resolve(v, active) for v in node]
        return node

    return resolve(schema, ())


def _type_only(target: dict[str, Any]) -> dict[str, Any]:
    """Where a recursive schema stops: the node's type (and description), without its structure."""
    types = json_types(target)
    out: dict[str, Any] = {"type": types[0] if len(types) == 1 else types} if types else {}
    if isinstance(target.get("description"), str):
        out["description"] = target["description"]
    return out


# -- older drafts -----------------------------------------------------------------------------

DRAFT_07 = "http://json-schema.org/draft-07/schema#"
_OLD_DRAFTS = ("http://json-schema.org/draft-04/schema", "http://json-schema.org/draft-03/schema")
_SUB = ("items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames", "additionalItems",
        "unevaluatedItems", "unevaluatedProperties")
_SUB_LIST = ("anyOf", "oneOf", "allOf", "prefixItems", "items")
_SUB_MAP = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies")


def upgrade_draft(schema: Any) -> Any:
    """`schema` with its draft-04 spellings rewritten as later drafts spell them, so a schema written
    for draft-04 is checked, validated and exposed as its author meant it: boolean `exclusiveMinimum`/`exclusiveMaximum` beside `minimum`/`maximum` become the numeric
    bounds, the draft-04 `id` keyword is dropped (nothing here resolves remote ids), and a declared
    draft-04 (or draft-03) `$schema` becomes draft-07. `definitions` needs nothing: `$ref`s into it
    resolve like `$defs`."""
    if not isinstance(schema, dict):
        return schema
    out = {k: v for k, v in schema.items() if not (k == "id" and isinstance(v, str))}
    declared = out.get("$schema")
    if isinstance(declared, str) and declared.rstrip("#") in _OLD_DRAFTS:
        out["$schema"] = DRAFT_07
    for flag, bound in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
        if isinstance(out.get(flag), bool):
            if out.pop(flag) and isinstance(out.get(bound), (int, float)) and not isinstance(out[bound], bool):
                out[flag] = out.pop(bound)
    for k, v in out.items():
        if k in _SUB and isinstance(v, dict):
            out[k] = upgrade_draft(v)
        elif k in _SUB_LIST and isinstance(v, list):
            out[k] = [upgrade_draft(sub) for sub in v]
        elif k in _SUB_MAP and isinstance(v, dict):
            out[k] = {name: upgrade_draft(sub) for name, sub in v.items()}
    return out


# -- normalization ----------------------------------------------------------------------------

# The keywords of JSON Schema (2020-12 and the drafts before it) an object schema may carry beside its properties.
_KEYWORDS = frozenset({
    "$schema", "$id", "$ref", "$defs", "$comment", "$anchor", "$dynamicRef", "$dynamicAnchor", "$vocabulary", "id",
    "type", "properties", "required", "additionalProperties", "patternProperties", "propertyNames", "minProperties",
    "maxProperties", "dependencies", "dependentRequired", "dependentSchemas", "unevaluatedProperties", "definitions",
    "title", "description", "default", "examples", "example", "deprecated", "readOnly", "writeOnly", "nullable",
    "anyOf", "oneOf", "allOf", "not", "if", "then", "else", "enum", "const", "format", "items", "prefixItems",
    "additionalItems", "contains", "minItems", "maxItems", "uniqueItems", "unevaluatedItems", "minimum", "maximum",
    "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "pattern", "contentMediaType",
    "contentEncoding", "contentSchema",
})
_SCHEMA_WORDS = ("type", "description", "enum", "anyOf", "oneOf", "items", "default", "$ref", "format")


def lift_stray_properties(schema: dict[str, Any]) -> dict[str, Any]:
    """Parameters a spec wrote beside `properties` instead of inside it (`{"type": "object", "properties": {},
    "messageId": {"type": "string", "description": "ID of the email message to delete"}}`: 73 tools of the
    shipped corpus, Gmail's, Excel's and DICOM's among them) are its parameters: moved into `properties`,
    optional unless `required` names them. Left where they were, the tool would take no argument at all."""
    stray = {k: v for k, v in schema.items()
             if k not in _KEYWORDS and not k.startswith("x-") and isinstance(v, dict) and any(w in v for w in _SCHEMA_WORDS)}
    if not stray:
        return schema
    props = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
    out = {k: v for k, v in schema.items() if k not in stray}
    out["properties"] = {**stray, **props}
    return out


def normalize_input_schema(raw: Any) -> dict[str, Any]:
    """The exposed input schema of a tool: a self-contained object schema that rejects unknown
    parameters unless the original explicitly allowed them."""
    if raw is None:
        raw = {"type": "object", "properties": {}}
    if not isinstance(raw, dict):
        raise SchemaProblem("invalid_schema", f"inputSchema must be an object, got {type(raw).__name__}")
    raw = lift_stray_properties(upgrade_draft(raw))
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


# A Python server's docstring documents its arguments in the tool's description ("ARGUMENTS\n    team:
# The team name ...\n    playerType: Either "pitchers" or "batters".") while the schema says only the
# name: the line that names a parameter (as it is spelled or in camelCase, "- name (type):" too) and the
# lines indented under it are that parameter's description.
_ARG_LINE = re.compile(r"^(?P<indent>[ \t]*)(?:[-*][ \t]+)?`?(?P<name>[A-Za-z_][\w-]*)`?[ \t]*(?:\([^)\n]{0,60}\))?[ \t]*:[ \t]*(?P<text>\S.*)$")


def _camel(name: str) -> str:
    return re.sub(r"_([a-z0-9])", lambda m: m.group(1).upper(), name)


def documented_params(schema: dict[str, Any], description: str) -> dict[str, Any]:
    """The schema with each undescribed top-level parameter given the description the tool's
    docstring writes for it; parameters the schema describes keep their own words."""
    props = schema.get("properties")
    if not isinstance(props, dict) or not description:
        return schema
    bare = {k for k, v in props.items() if isinstance(v, dict) and not v.get("description")}
    if not bare:
        return schema
    spelled = {alias: k for k in bare for alias in (k, _camel(k))}
    lines, docs = description.splitlines(), {}
    for i, line in enumerate(lines):
        m = _ARG_LINE.match(line)
        if m is None or m.group("name") not in spelled or spelled[m.group("name")] in docs:
            continue
        indent, text = len(m.group("indent").expandtabs()), [m.group("text").strip()]
        for more in lines[i + 1:]:
            if not more.strip() or len(more) - len(more.lstrip()) <= indent:
                break
            text.append(more.strip())
        docs[spelled[m.group("name")]] = " ".join(text)
    if not docs:
        return schema
    return {**schema, "properties": {k: ({**v, "description": docs[k]} if k in docs else v) for k, v in props.items()}}


_EXAMPLE_CUE = re.compile(r"\b(?:e\.\s?g\.?|for example|for instance|such as|examples?:|either|one of)[,:]?\s*", re.I)
_QUOTED = re.compile(r"'([^'\n]{1,60})'|\"([^\"\n]{1,60})\"|`([^`\n]{1,60})`")
# "permission level (view / control / modify / grant / admin)": the values, listed between slashes
_SLASH_LIST = re.compile(r"\(\s*([\w.-]+(?:\s*/\s*[\w.-]+){2,})\s*\)")
# "Type of season (e.g., regular, postseason)": examples listed without quotes, inside parentheses
_BARE_ITEM = re.compile(r"[A-Za-z0-9][\w.:/-]{0,30}")
# "Location (e.g., city, state)": the parts a value is made of, not values
_FORMAT_WORDS = frozenset({"city", "state", "country", "street", "zip", "name", "id", "number", "string", "size"})
_BARE_ETC = re.compile(r"\(([^()\n]{1,80}),\s*etc\.?\s*\)")  # "User community (RE, SB, AG, etc.)"
# `"nodes-base.slack", "nodes-base.googleSheets", etc.`: quoted values listed up to an "etc." are examples without a cue
_QUOTED_ETC = re.compile(r"((?:(?:'[^'\n]{1,60}'|\"[^\"\n]{1,60}\"|`[^`\n]{1,60}`)\s*,\s*){2,})etc\b")


# "Region: us/eu. Default: us", "(default: 30.0)", "default is false": a default the description states.
# A word is taken only where the schema's enum lists it or the spec quotes it ("defaults to latest" or
# "Default depends on ..." states no value).
_SAID_DEFAULT = re.compile(r"\bdefaults?(?:\s+(?:is|to|value(?:\s+is)?))?\s*[:=]?\s*(?P<q>[`'\"]?)(?P<v>[^`'\",;)\s]+)(?P=q)\s*(?:[.,;)]|$)",
                           re.I)


def said_default(schema: Any) -> Any:
    """The parameter's default: the schema's own, else one its description states that fits it; None."""
    if not isinstance(schema, dict):
        return None
    if "default" in schema:
        return schema["default"]
    m = _SAID_DEFAULT.search(schema.get("description") or "")
    if m is None:
        return None
    raw, kind = m.group("v").rstrip("."), main_type(schema)
    if kind == "boolean":
        return {"true": True, "false": False}.get(raw.lower())
    if kind in ("integer", "number"):
        try:
            value = float(raw)
        except ValueError:
            return None
        if kind == "number":
            return value
        return int(value) if value.is_integer() else None
    if kind == "string" and (raw in (schema.get("enum") or []) or m.group("q")):
        return raw
    return None


def spec_examples(schema: dict[str, Any]) -> list[str]:
    """Example values a text parameter's specification gives: its `examples`, the quoted values its
    description lists after "e.g." / "such as" ("Network name (e.g., 'mainnet', 'sepolia')"), or the
    words it lists between slashes in parentheses ("(view / control / admin)"). A value that elides
    ('0x1234...') is no example of a real value."""
    given = schema.get("examples")
    found = [v for v in given if isinstance(v, str)] if isinstance(given, list) else []
    text = schema.get("description")
    if not found and isinstance(text, str):
        for cue in _EXAMPLE_CUE.finditer(text):
            tail = text[cue.end():]
            span = tail[: min((i for i in (tail.find(")"), tail.find("\n"), tail.find(". ")) if i >= 0), default=len(tail))]
            quoted = [next(g for g in m.groups() if g is not None) for m in _QUOTED.finditer(span)]
            found += quoted or _bare_examples(text[:cue.start()], span)
        etc = _QUOTED_ETC.search(text)
        if not found and etc:
            found = [next(g for g in m.groups() if g is not None) for m in _QUOTED.finditer(etc.group(1))]
        bare = _BARE_ETC.search(text)
        if not found and bare:
            found = _bare_examples("(", bare.group(1))
        listed = _SLASH_LIST.search(text)
        if not found and listed:
            found = listed.group(1).split("/")
    return list(dict.fromkeys(v.strip() for v in found if v.strip() and "..." not in v and "\u2026" not in v))[:8]


def _bare_examples(before: str, span: str) -> list[str]:
    """The values an "(e.g., regular, postseason)" lists: only inside parentheses, where a list of
    words is a list of values rather than a sentence, and only when every item is one token."""
    if not before.rstrip().endswith("("):
        return []
    items = [i.strip() for i in re.split(r",|\bor\b", span) if i.strip()]
    items = [i for i in items if i.lower() not in ("etc", "etc.")]
    if len(items) < 2 or not all(_BARE_ITEM.fullmatch(i) for i in items) or {i.lower() for i in items} & _FORMAT_WORDS:
        return []
    return items


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
    elif "string" in types:
        examples = spec_examples(schema)
        if examples:  # what the field holds, in the specification's words (not a constraint: `examples`)
            out["examples"] = examples
    if isinstance(schema.get("items"), dict):
        out["items"] = loosen(schema["items"], depth + 1)
    if isinstance(schema.get("properties"), dict):
        out["properties"] = {k: loosen(v, depth + 1) for k, v in schema["properties"].items()}
    for combo in ("anyOf", "oneOf"):
        if isinstance(schema.get(combo), list) and "type" not in out:
            out["anyOf"] = [loosen(s, depth + 1) for s in schema[combo]]
    if "enum" in out and "type" not in out:
        out["type"] = sorted({type_of(v) for v in out["enum"]})
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
    if canonical_bytes(a) == canonical_bytes(b):
        return a
    ta, tb = json_types(a), json_types(b)
    if ta and tb and "enum" not in a and "enum" not in b and not any(k in a or k in b for k in ("items", "properties", "anyOf")):
        types = list(dict.fromkeys(ta + tb))
        out: dict[str, Any] = {"type": types[0] if len(types) == 1 else types}
        examples = list(dict.fromkeys(a.get("examples", []) + b.get("examples", [])))
        if examples:
            out["examples"] = examples
        return out
    return {"anyOf": [a, b]}

