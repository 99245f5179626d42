"""Fidelity checks: does a compiled tool do what its *specification* says?

Verification (verify.py) asks whether a service is consistent with its own plan. These checks ask
whether it is faithful to the spec it came from, so every expectation here is read from the tool's
name, description and schemas - never from the inferred plan - and then tested by calling the
tool through `Environment.step`, as an agent would. One check per failure family:

- kind: a tool whose name says it changes something is not read-only, and a tool whose name says
  it reads does not change the state (no read tool answering "completed", no `add_note` routed to
  arithmetic);
- keyed_lookup: a lookup by a key returns the record with that key (two keys, two records) and an
  unknown key gives not-found or a record of that key, never someone else's record;
- optional_filter: an optional argument, when given, filters by what it names (a value taken from a
  result finds that result; an enum value or a number like `days=7` does not empty a non-empty list);
- sees_writes: the service's read tools over an entity see what its writes created, and a record
  written twice under the same key is one record that reads back the second version;
- computation: time zones (`zoneinfo`, daylight saving, every valid zone), `statistics`, clinical
  calculators against a worked textbook example of their formula (clinical.py), unit
  tables (the schema's own enum values included), the declared range of random tools, and functions
  of numbers (trigonometry, logarithms, gcd/lcm, primality, quadratic roots, degrees/radians) against `math`,
  and Unix timestamps against `datetime`;
- output_fields: an output carries the fields the spec's output schema requires;
- domain: a read that is no search does not answer with generic search hits (a `find` or a query by
  a filter is no search); no read answers with placeholder text ("News 1, as recorded."); a read
  named for a value (`get_current_page_url`, `getEmployeeCount`, `fetch_html`) answers that value;
- target: a write aimed at a record acts on the record its arguments name (every identifying
  argument counts; a key the service holds for the noun the spec names is found);
- session: a browser service's page tools act on one session: they refuse before any page is open,
  reads and screenshots answer the page navigated to, a click is remembered on that page, back and
  forward move along the history, and closing ends the session;
- object_input: a read whose required arguments are all objects answers from them: two different
  objects do not get one stored record;
- database: the SQL tools of a service run on one database: a read answers what SQL says and refuses
  a change, and the table and row a write creates are selected, listed and described by the others;
- keyspace: a key-value store's commands act on one keyspace as the store's own do (kv.py);
- home: a Home Assistant switches the entity its spec names (off reads off, toggled reads on) and does
  not find one that does not exist (home.py);
- tensors: a tensor store's computations answer what NumPy computes for the tensors the check stored
  (sums, products, inverses, determinants, ranks, eigenvalues, singular values), refuse what the
  shapes do not allow, and its stores, scalings and deletions are what its views then show (tensor.py);
- git: a git client stages what it adds, commits what is staged (the log shows it, the status no
  longer does), refuses an empty commit and a checkout of a branch that does not exist (git.py);
- sees_writes also reads a count (`count_documents`) before and after a create: one more.

A check that does not apply to a tool is not recorded; one that applies but cannot be set up is
recorded as skipped. `level_of` turns the results into a level per tool: faithful, structural
(consistent but generic: a logged action, a generic record) or simulated (world model: a tool that
failed any other check is recompiled as one).
"""

from __future__ import annotations

import json
import math
import random
import re
import statistics
from datetime import datetime
from typing import Any, Iterable, Literal
from zoneinfo import ZoneInfo

import numpy as np

from compoworld.services.environment import SEP, Environment, Observation
from compoworld.services.json_schema import fits, main_type, sample
from compoworld.synthesis.compute import epoch_conversion
from compoworld.synthesis.filesystem import lists_a_directory, parent_of
from compoworld.services.sampling import schema_arguments
from compoworld.services.service import Service
from compoworld.services.tool import ToolSpec
from compoworld.synthesis.loader import ServerSpec, ToolIn
from compoworld.synthesis.plan import WRITE_OPS, ServicePlan
from compoworld.synthesis.naming import says_it_keeps, singular, snake, words
from compoworld.synthesis.verify import CheckResult, Status
from compoworld.synthesis.clinical import WORKED, clinical_formula
from compoworld.synthesis.git import REPO_PATH, git_command, is_git
from compoworld.synthesis.tensor import is_tensor_store, name_params as tensor_name_params, tensor_command
from compoworld.synthesis.home import home_command, is_home
from compoworld.synthesis.kv import is_kv_store, kv_command, key_param as kv_key_param
from compoworld.synthesis.world import PLACEHOLDER, PRICE_FIELDS

Level = Literal["faithful", "structural", "simulated"]
LEVELS: tuple[Level, ...] = ("faithful", "structural", "simulated")
GENERIC_CHECKS = {"fidelity_domain"}  # failing only these makes a tool structural, not simulated

# -- what a spec says, in words (a lexicon of its own: the plan's inference is what is under test) --

WRITE_VERBS = set("create add new insert register post upload save write put store record log update edit modify set change "
                  "rename patch replace move delete remove drop destroy purge erase wipe clear send transfer archive close cancel publish "
                  "approve reject assign complete mark submit commit push stage merge deploy book schedule invite share enable "
                  "disable lock unlock star pin like follow subscribe unsubscribe append attach upsert reply comment scale "
                  "ingest advance import restart install uninstall upgrade revert rollback undo redo rebase end terminate "
                  "abort stop kill reset reboot shutdown regenerate quit cleanup initiate reconnect toggle demote promote pause unpause resume suspend "
                  "ensure buy sell purchase delegate undelegate claim withdraw deposit expose begin forward manage join".split())
# write verbs that are nouns too, when they end a name after other words (an app store, a compound record)
NOUN_WRITES = {"store", "record", "log", "post", "comment", "book", "schedule", "share", "commit", "reply", "stage"}
READ_VERBS = set("get read fetch retrieve show view describe list search find query lookup look browse inspect status "
                 "count stats download info details".split())
# read words that name a thing as often as an act (kept apart from the compiler's list: a check must not agree
# with the compiler by construction)
NOUN_READS = {"status", "stats", "info", "details", "query"}
LIST_VERBS = {"list", "search", "find", "query", "browse", "filter", "discover", "lookup_many"}
CREATE_VERBS = {"create", "add", "new", "insert", "register", "post", "upload", "save", "write", "put", "store", "record", "log",
                "append", "upsert"}
MATH_OBJECTS = {"matrix", "vector", "tensor", "basis", "polynomial", "fraction"}
ARITH_VERBS = {"add", "subtract", "multiply", "divide", "sum", "log"}  # `log(x, base)` of numbers is a logarithm
KEY_TAILS = {"id", "key", "uuid", "slug", "symbol", "ticker", "path", "url", "name", "email", "username", "code", "handle", "isbn", "doi"}
KEY_NAMES = {"path", "file_path", "filepath", "filename", "file_name", "url", "uri", "symbol", "ticker", "email", "username",
             "slug", "handle", "key", "id", "uuid", "isbn", "doi", "city", "location", "repo", "repository", "package", "domain",
             "word", "address", "ip", "hostname", "coin", "coin_id", "table", "table_name"}
REWRITE_KEYS = {"path", "file_path", "filepath", "filename", "file_name", "key", "url", "uri"}
NOT_FILTERS = {"limit", "offset", "page", "cursor", "sort", "order", "format", "fields", "verbose", "page_size", "per_page",
               "max_results", "top", "top_k", "count", "size", "skip", "start", "query", "q", "search", "keyword", "keywords",
               "text", "pattern", "regex", "glob", "term", "sort_by", "order_by", "direction", "language", "lang", "locale",
               "timeout", "max", "n", "k", "num_results", "depth"}
BOUND = re.compile(r"(^|_)(min|max|from|to|since|until|before|after|start|end|gt|gte|lt|lte|lower|upper|minimum|maximum)(_|$)")
UNKNOWN_TEXT = "zz-unknown-4711"
ATTR_WORDS = set("info information details detail data status metadata stats statistics count list summary history by for "
                 "from with all batch multiple content contents".split())


class ToolIntent:
    """What a tool's spec says it does."""

    def __init__(self, spec: ToolIn) -> None:
        ws = words(spec.name)
        params = spec.input_schema.get("properties") or {}
        numeric_only = bool(params) and all(main_type(s if isinstance(s, dict) else {}) in ("number", "integer", "array") for s in params.values())
        # a read word that names a thing as often as an act gives way to a verb: `StatusController_sendTextStatus`
        # sends, `superset_saved_query_create` creates, `GroupsController_joinInfoGroup` joins
        verb = next((w for w in ws if w in WRITE_VERBS or (w in READ_VERBS and w not in NOUN_READS)), None) \
            or next((w for w in ws if w in NOUN_READS), None)
        if verb is None:
            first = words(spec.description.split(".")[0])[:1]
            verb = next((w for w in first if w in WRITE_VERBS or w in READ_VERBS), None)
        if verb is None and says_it_keeps(spec.description):
            verb = "save"
        # "Shows the commit logs", "Retrieves ...": the description's lead verb, inflected or not
        lead = next((v for w in words(spec.description.split(".")[0])[:2] for v in (w, w[:-1], w[:-2]) if v in READ_VERBS), None)
        if verb in NOUN_WRITES and verb in ws[1:] and ws.index(verb) > 0 and lead is not None:
            # `web_data_apple_app_store`, `app-store-details` ("Get detailed information about an App Store app"):
            # after other words the store is a noun, and the description's read is the verb
            verb = lead
        elif verb in WRITE_VERBS and len(ws) > 1 and ws[-1] != verb and ws[-1] in LIST_VERBS | {"get", "fetch"} and lead is not None:
            verb = ws[-1]  # `app_store_search`, `API-post-search`, `tag_list` ("Get a list of tags"): it reads
        self.verb = verb
        # after the verb, a verb's word names a thing: `add_issue_comment` adds a comment, not an issue
        after = ws.index(verb) if verb in ws else len(ws)
        self.nouns = {singular(w) for i, w in enumerate(ws)
                      if w != verb and len(w) > 2 and (i > after or (w not in WRITE_VERBS and w not in READ_VERBS))}
        content = [singular(w) for w in ws if singular(w) in self.nouns and w not in ATTR_WORDS]
        self.head = content[-1] if content else None
        # `add_matrices(name_a, name_b)`, `change_basis(name, new_basis)`: arithmetic on mathematical objects,
        # however they are given, answers a result and stores nothing
        self.arith = (verb in ARITH_VERBS and numeric_only) or (verb in ARITH_VERBS | {"change"} and self.head in MATH_OBJECTS)
        self.write = verb in WRITE_VERBS and not self.arith
        self.read = verb in READ_VERBS
        last = ws[-1] if ws else ""
        self.listing = self.read and (verb in LIST_VERBS or (last != singular(last) and last not in ("status", "details", "stats", "info", "news", "data")))
        self.create = verb in CREATE_VERBS and not self.arith


# -- helpers ----------------------------------------------------------------------------------

def _call(env: Environment, svc: str, tool: str, args: Any) -> Observation:
    return env.step({"name": f"{svc}{SEP}{tool}", "arguments": args})


def _scalars(v: Any, depth: int = 0) -> Iterable[Any]:
    if depth > 4:
        return
    if isinstance(v, dict):
        for x in v.values():
            yield from _scalars(x, depth + 1)
    elif isinstance(v, list):
        for x in v[:100]:
            yield from _scalars(x, depth + 1)
    else:
        yield v


def names(data: Any, value: Any) -> bool:
    """Whether an output mentions `value` (a key it was asked about)."""
    if isinstance(value, str):
        want = value.casefold()
        return any(isinstance(s, str) and (s.casefold() == want or (len(want) > 3 and want in s.casefold())) for s in _scalars(data))
    return any(s == value and type(s) is type(value) or (isinstance(s, str) and s == str(value)) for s in _scalars(data))


def _items(data: Any) -> list[Any] | None:
    if isinstance(data, list):
        return data
    if isinstance(data, dict):
        for k in ("items", "results", "data", "records", "entries"):
            if isinstance(data.get(k), list):
                return data[k]
        lists = [v for v in data.values() if isinstance(v, list)]
        if len(lists) == 1:
            return lists[0]
    return None


def _matches(value: Any, wanted: Any) -> bool:
    if isinstance(value, list):
        return any(_matches(v, wanted) for v in value)
    if isinstance(wanted, list):
        return any(_matches(value, w) for w in wanted)
    if isinstance(value, str) and isinstance(wanted, str):
        return wanted.casefold() in value.casefold()
    return value == wanted or str(value) == str(wanted)


def _props(spec: ToolSpec) -> dict[str, dict[str, Any]]:
    return {k: (v if isinstance(v, dict) else {}) for k, v in (spec.input_schema.get("properties") or {}).items()}


def _key_param(spec: ToolSpec) -> str | None:
    """The one required scalar parameter that names a record (by its id, path, url, symbol...); None
    when there is none, or several (`get_state(project_id, state_id)`: which record both name is not
    for this check to guess)."""
    props = _props(spec)
    keys = [p for p in spec.input_schema.get("required") or []
            if p in props and main_type(props[p]) in ("string", "integer") and (snake(p) in KEY_NAMES or snake(p).split("_")[-1] in KEY_TAILS)]
    return keys[0] if len(keys) == 1 else None


GENERIC_PARAMS = frozenset({"key", "id", "uuid", "name"})


def _state_values(env: Environment, svc: str, param: str, sub: dict[str, Any], nouns: set[str]) -> list[Any]:
    """Distinct values of the state that a parameter named `param` names: a same-named field, or the
    ids of the table its name (`dag_id`) or the tool's nouns (`get_dag(id)`) point at."""
    s = snake(param)
    stem = singular("_".join(s.split("_")[:-1])) if "_" in s else ""
    idlike = s in ("id", "uuid") or s.endswith("_id") or s.endswith("_uuid")
    out: list[Any] = []
    tables = list(env.services[svc].db.values())
    # the table the tool's own nouns name first: a `dag_id` of a run is not necessarily a dag's
    tables.sort(key=lambda t: t.entity not in nouns)
    named_table = any(t.entity in nouns for t in tables)
    for table in tables:
        own = table.entity in ({stem} if stem else nouns) or bool(stem and table.entity.endswith(stem))
        if out and table.entity not in nouns:
            break
        if not own and s in GENERIC_PARAMS and named_table and table.entity != s:
            continue  # `get_component(key)`: the key of a component, not any record's field called `key`
        for row in list(table.rows.values())[:40]:
            v = row.get(s, row.get(param))
            if v is None and idlike and own:
                v = row.get("id")
            if v is not None and not isinstance(v, (list, dict, bool)) and fits(sub, v) and v not in out:
                out.append(v)
    return out


def _unknown(sub: dict[str, Any], known: list[Any]) -> Any:
    for cand in (UNKNOWN_TEXT, 987654, "ZZUNKNOWN", "zzunknown"):
        if fits(sub, cand) and cand not in known:
            return cand
    rng = random.Random(4711)
    for _ in range(8):
        cand = sample(sub, rng)
        if cand is not None and fits(sub, cand) and cand not in known:
            return cand
    return None


class _Rec:
    def __init__(self, service: str) -> None:
        self.service = service
        self.checks: list[CheckResult] = []

    def add(self, check: str, tool: str, status: Status, detail: str = "") -> None:
        self.checks.append(CheckResult(service=self.service, tool=tool, check=f"fidelity_{check}", passed=status == "pass",
                                       status=status, detail=detail[:300]))


# -- the checks -------------------------------------------------------------------------------

def _check_kind(name: str, spec: ToolSpec, intent: ToolIntent, rec: _Rec) -> None:
    """Static: what the name says against how the tool was compiled (a read-only tool that changes the
    state anyway is caught by verification's `read_only` check)."""
    if spec.kind == "world_model" or not (intent.read or intent.write):
        return
    if intent.write and spec.read_only:
        rec.add("kind", name, "fail", f"the spec says it changes something ({intent.verb}); compiled read-only")
    elif intent.read and not spec.read_only:
        rec.add("kind", name, "fail", f"the spec says it reads ({intent.verb}); compiled as a change")
    else:
        rec.add("kind", name, "pass")


def _check_object_input(env: Environment, svc: str, name: str, spec: ToolSpec, tool: ToolIn, rec: _Rec) -> None:
    """A read whose required arguments are all objects (`populate_transaction(transaction)`,
    `estimate_audience(audienceDefinition)`, `swap_quote(request)`) answers from what it is given: two
    different objects do not get the same answer (they had answered one stored record whatever they held)."""
    props = _props(spec)
    required = [r for r in spec.input_schema.get("required") or [] if r in props]
    if not spec.read_only or spec.kind == "world_model" or _is_search(tool) or not required \
            or not all(main_type(props[r]) == "object" for r in required):
        return
    outs = []
    for seed in (5, 6, 7, 8):
        args = schema_arguments(spec, env, svc, random.Random(seed), fresh=True)
        if args is None or any(args == a for a, _ in outs):
            continue
        obs = _call(env, svc, name, args)
        if obs.ok:
            outs.append((args, obs.data))
        if len(outs) == 2:
            break
    if len(outs) < 2:
        rec.add("object_input", name, "skip", "no two different arguments it accepts")
        return
    (a1, d1), (a2, d2) = outs
    same = d1 == d2
    if same and isinstance(d1, dict) and isinstance(d1.get("items"), list) and not d1["items"]:
        rec.add("object_input", name, "skip", "neither argument finds anything")  # two filters that match nothing agree
        return
    rec.add("object_input", name, "fail" if same else "pass",
            f"answers the same for {', '.join(required)}={_short(a1)} and {_short(a2)}" if same else "")


def _short(args: dict[str, Any]) -> str:
    text = repr(args)
    return text if len(text) <= 80 else text[:77] + "..."


def _check_keyed(env: Environment, svc: str, name: str, spec: ToolSpec, intent: ToolIntent, rec: _Rec) -> None:
    if not intent.read or intent.listing or spec.kind == "world_model":
        return
    key = _key_param(spec)
    if key is None:
        return
    sub = _props(spec)[key]
    known = _state_values(env, svc, key, sub, intent.nouns)
    outside = len(known) < 2
    if outside:  # a lookup into the outside world (weather of any city): any two valid keys
        rng = random.Random(31)
        for _ in range(12):
            v = sample(sub, rng)
            if v is not None and fits(sub, v) and v not in known:
                known.append(v)
            if len(known) >= 2:
                break
    if len(known) < 2:
        rec.add("keyed_lookup", name, "skip", f"no two values for {key}")
        return
    outs = []
    for v in known[:2]:
        args = schema_arguments(spec, env, svc, random.Random(37), given={key: v})
        if args is None or args.get(key) != v:
            rec.add("keyed_lookup", name, "skip", f"could not build arguments with {key}={v!r}")
            return
        obs = _call(env, svc, name, args)
        if not obs.ok:
            if obs.error_kind == "not_found" and not outside:
                rec.add("keyed_lookup", name, "fail", f"{key}={v!r} from the state: not found")
            else:
                rec.add("keyed_lookup", name, "skip", f"{key}={v!r}: {obs.error_kind}")
            return
        outs.append((v, obs.data, args))
    (v1, d1, a1), (v2, d2, _) = outs
    problems = []
    if d1 == d2:
        problems.append(f"{key}={v1!r} and {key}={v2!r} return the same result")
    problems += [f"the result for {key}={v!r} does not name it" for v, d in ((v1, d1), (v2, d2)) if not names(d, v)]
    unk = _unknown(sub, known)
    if unk is not None:
        obs = _call(env, svc, name, {**a1, key: unk})
        if obs.ok and (obs.data in (d1, d2) or not names(obs.data, unk)):
            problems.append(f"unknown {key}={unk!r} returned a record of another key")
    rec.add("keyed_lookup", name, "fail" if problems else "pass", "; ".join(problems))


def _check_filters(env: Environment, svc: str, name: str, spec: ToolSpec, intent: ToolIntent, declared: set[str], rec: _Rec) -> None:
    if not intent.listing or spec.kind == "world_model":
        return
    props = _props(spec)
    required = set(spec.input_schema.get("required") or [])
    optional = [p for p in props if p not in required and snake(p) not in NOT_FILTERS and not BOUND.search(snake(p))
                and main_type(props[p]) not in ("boolean", "object", None)]
    if not optional:
        return
    base = schema_arguments(spec, env, svc, random.Random(41))
    if base is None:
        rec.add("optional_filter", name, "skip", "could not build arguments")
        return
    obs0 = _call(env, svc, name, base)
    items0 = _items(obs0.data) if obs0.ok else None
    if items0 is None:
        rec.add("optional_filter", name, "skip", "the listing gives no list to compare")
        return
    problems: list[str] = []
    tested = 0
    for p in optional[:4]:
        sub, s = props[p], snake(p)
        # a field the spec itself declares (a write takes it, an output promises it), not one the compiler made up
        field = next((f for f in (s, singular(s)) if f in declared and any(isinstance(i, dict) and i.get(f) is not None for i in items0)), None)
        enum = sub.get("enum") or (sub.get("items") or {}).get("enum") if main_type(sub) in ("string", "array", "integer") else None
        if field is not None:
            row = next(i for i in items0 if isinstance(i, dict) and i.get(field) is not None)
            value = row[field]
            value = [value] if main_type(sub) == "array" and not isinstance(value, list) else value
            if not fits(sub, value):
                continue
            if lists_a_directory(name) and s in REWRITE_KEYS and isinstance(value, str):
                # `list_directory(path)` shows what lies in the path: the directory a result lies in shows it
                obs = _call(env, svc, name, {**base, p: parent_of(value)})
                tested += 1
                if not (obs.ok and names(obs.data, value)):
                    problems.append(f"{p}={parent_of(value)!r} does not list {value!r}, which lies in it")
                continue
            obs = _call(env, svc, name, {**base, p: value})
            got = _items(obs.data) if obs.ok else None
            tested += 1
            if not got:
                problems.append(f"{p}={value!r} taken from a result finds nothing")
            elif any(isinstance(i, dict) and field in i and not _matches(i[field], value) for i in got):
                problems.append(f"{p}={value!r} returns records with another {field}")
        elif isinstance(enum, list) and enum and items0:
            counts = []
            for v in enum[:4]:
                value = [v] if main_type(sub) == "array" else v
                obs = _call(env, svc, name, {**base, p: value})
                got = _items(obs.data) if obs.ok else None
                counts.append(len(got or []))
            tested += 1
            if not any(counts):
                problems.append(f"every value of {p} ({', '.join(map(str, enum[:4]))}) returns nothing")
        elif main_type(sub) in ("integer", "number") and items0 and s.rsplit("_", 1)[-1] not in ("id", "ids"):
            # a number that names no record (`days`, `min_score`) must not empty the list; an id
            # (`pipeline_id=1.39`) that no record has rightly finds nothing
            value = sub.get("default", sample(sub, random.Random(43)))
            if not fits(sub, value):
                continue
            obs = _call(env, svc, name, {**base, p: value})
            tested += 1
            if obs.ok and not (_items(obs.data) or []):
                problems.append(f"{p}={value!r} empties a list of {len(items0)}")
    if problems:
        rec.add("optional_filter", name, "fail", "; ".join(problems))
    elif tested:
        rec.add("optional_filter", name, "pass", f"{tested} optional arguments")


def _distinct_word(args: dict[str, Any]) -> str | None:
    text = [w for v in args.values() if isinstance(v, str) for w in re.findall(r"[A-Za-z]{5,}", v)]
    return max(text, key=len) if text else None


def _check_sees_writes(cls: type[Service], seed: int, intents: dict[str, ToolIntent], rec: _Rec) -> None:
    svc = cls.name
    specs = cls.tool_specs()
    creators = [n for n, s in specs.items() if intents[n].create and s.kind != "world_model" and not s.read_only]
    readers = [n for n, s in specs.items() if intents[n].read and s.kind != "world_model" and s.read_only]
    for w in creators[:4]:
        related = [r for r in readers if intents[w].head is not None and intents[r].head == intents[w].head]
        if not related:
            continue
        env = Environment([cls], seed=seed)
        args = schema_arguments(specs[w], env, svc, random.Random(47), all_optional=True, fresh=True) \
            or schema_arguments(specs[w], env, svc, random.Random(47), fresh=True)
        if args is None:
            continue
        # a count of the records (`count_documents`) sees a create as one more: read before and after
        counted = {r: c for r in related[:3] if names_a_count(r) for c in [_count_before(env, svc, r, specs[r], args)] if c is not None}
        obs = _call(env, svc, w, args)
        if not obs.ok or not isinstance(obs.data, dict):
            continue
        rid = obs.data.get("id")
        marks = [v for v in ([rid] if isinstance(rid, str) else []) + [args[k] for k in args if snake(k) in REWRITE_KEYS] if isinstance(v, str)]
        if not marks:
            continue
        logged = obs.data.get("status") == "completed" and "result" in obs.data  # a write compiled as a logged action
        for r in related[:3]:
            if names_a_count(r):
                if r in counted:
                    _count_sees(env, svc, r, *counted[r], rec, w if logged else None)
                continue
            _read_sees(env, svc, r, specs[r], args, rid if isinstance(rid, str) else None, marks, rec, w if logged else None)
        key = next((k for k in (specs[w].input_schema.get("required") or []) if snake(k) in REWRITE_KEYS and isinstance(args.get(k), str)), None)
        if key is not None:
            _check_rewrite(env, svc, w, specs[w], args, key, related, specs, intents, rec)


def names_a_count(tool: str) -> bool:
    """`count`, `count_documents`, `get_transaction_count`: a read named for how many records there are."""
    ws = words(tool)
    return "count" in ws[:2] or ws[-1:] == ["count"]  # after a server's own prefix too (`goalstory_count_goals`)


def _count_before(env: Environment, svc: str, r: str, spec: ToolSpec, written: dict[str, Any]) -> tuple[dict[str, Any], float | None] | None:
    """The arguments of count tool `r` that name what a write is about to put (its collection, its
    owner), and the count they give before it; None where the count cannot be asked for it."""
    props = _props(spec)
    given = {k: v for k, v in written.items() if k in props and snake(k) not in REWRITE_KEYS}
    if _key_param(spec) is not None or any(p not in given for p in spec.input_schema.get("required") or [] if p in props):
        return None  # a count of one record's parts, or of a range the write says nothing about
    args = schema_arguments(spec, env, svc, random.Random(53), given=given)
    obs = _call(env, svc, r, args) if args is not None else None
    if args is None or obs is None or not obs.ok:
        return None
    return args, _count_in(obs.data)


def _count_in(data: Any) -> float | None:
    """The count an answer gives: under a key that says so (`count`, `total`), else its one number."""
    if isinstance(data, dict):
        said = [v for k, v in data.items() if ("count" in k.lower() or k.lower() == "total") and isinstance(v, (int, float))
                and not isinstance(v, bool)]
        if len(said) == 1:
            return float(said[0])
    numbers = _numbers(data)
    return numbers[0] if len(numbers) == 1 else None


def _count_sees(env: Environment, svc: str, r: str, args: dict[str, Any], before: float | None, rec: _Rec, blame: str | None) -> None:
    obs = _call(env, svc, r, args)
    after = _count_in(obs.data) if obs.ok else None
    seen = before is not None and after == before + 1
    if before is None:
        why = f"{r} answers no count"
    else:
        why = f"{r} counted {before:g} before a create and {obs.error or ('nothing' if after is None else f'{after:g}')} after it"
    rec.add("sees_writes", blame or r, "pass" if seen else "fail", "" if seen else why)


def _read_sees(env: Environment, svc: str, r: str, spec: ToolSpec, written: dict[str, Any], rid: str | None, marks: list[str],
               rec: _Rec, blame: str | None) -> None:
    """Whether read tool `r` sees a record just written with `written` (given id `rid`); a failure is
    the reader's, or the writer's (`blame`) when the write only logged itself."""
    props = _props(spec)
    given = {k: v for k, v in written.items() if k in props}
    if lists_a_directory(r):  # `list_directory(path)` shows what lies in a directory
        given = {k: parent_of(v) if snake(k) in REWRITE_KEYS and isinstance(v, str) else v for k, v in given.items()}
    key = _key_param(spec)
    if key is not None and key not in given:
        s = snake(key)
        if not (rid and (s in ("id", "uuid") or s.endswith("_id")) and fits(props[key], rid)):
            return  # nothing written names this key
        given[key] = rid
    for q in props:
        if snake(q) in ("query", "q", "search", "keyword", "search_query", "term") and q not in given:
            word = _distinct_word(written)
            if word:
                given[q] = word
    for lim in ("limit", "max_results", "page_size", "per_page"):
        if lim in props and fits(props[lim], 100):
            given[lim] = 100
    if any(p not in given for p in spec.input_schema.get("required") or [] if p in props):
        return  # a required range or filter the write says nothing about: the record may rightly fall outside
    args = schema_arguments(spec, env, svc, random.Random(53), given=given)
    if args is None:
        return
    obs = _call(env, svc, r, args)
    seen = obs.ok and any(names(obs.data, m) for m in marks)
    who = blame or r
    rec.add("sees_writes", who, "pass" if seen else "fail",
            "" if seen else f"{r} does not see what was written ({marks[0]!r}): {obs.error or 'not in the result'}")


def _check_rewrite(env: Environment, svc: str, w: str, spec: ToolSpec, args: dict[str, Any], key: str, related: list[str],
                   specs: dict[str, ToolSpec], intents: dict[str, ToolIntent], rec: _Rec) -> None:
    props = _props(spec)
    texts = [k for k in args if k != key and main_type(props.get(k, {})) == "string" and snake(k) not in REWRITE_KEYS
             and not props[k].get("enum") and fits(props[k], "second version zqxv")]
    if not texts:
        return
    again = {**args, **{k: "second version zqxv" for k in texts}}
    obs = _call(env, svc, w, again)
    if not obs.ok:
        rec.add("sees_writes", w, "pass", f"a second write of {key}={args[key]!r} is refused ({obs.error_kind})")
        return
    problems = []
    for r in related[:3]:
        rspec = specs[r]
        rprops = _props(rspec)
        rkey = _key_param(rspec)
        given = {k: v for k, v in args.items() if k in rprops}
        if rkey is not None and rkey not in given and fits(rprops[rkey], args[key]):
            given[rkey] = args[key]
        got_args = schema_arguments(rspec, env, svc, random.Random(59), given=given)
        if got_args is None:
            continue
        got = _call(env, svc, r, got_args)
        if not got.ok:
            continue
        if intents[r].listing:
            items = _items(got.data) or []
            n = sum(1 for i in items if names(i, args[key]))
            if n > 1:
                problems.append(f"{r} shows {n} records for {key}={args[key]!r} after a rewrite")
        elif not names(got.data, "second version zqxv"):
            problems.append(f"{r} reads an old version of {key}={args[key]!r}")
    rec.add("sees_writes", w, "fail" if problems else "pass", "; ".join(problems))


IDENT_WORDS = re.compile(r"\b(identifier|identification|id|uuid|slug)\b", re.I)
SETTERS = {"set", "change", "edit", "update", "modify", "configure", "adjust", "rename", "replace", "patch", "apply", "use",
           "select", "switch", "put", "scale"}
IDENT_TAILS = {"id", "key", "uuid", "slug", "path", "identifier", "handle", "email", "username"}
VALUE_PARAMS = {"content", "contents", "text", "body", "value", "data", "message", "note", "description", "title", "name",
                # credentials and a transfer's ends are values a caller brings, not records the service holds
                "private_key", "privatekey", "api_key", "apikey", "secret_key", "access_key", "secret", "password", "token",
                "access_token", "to", "from"}
GENERIC_FIELDS = {"id", "name", "title", "key", "type", "status", "uuid", "value", "description", "content", "text", "label"}


def _identifying(spec: ToolSpec, intent: ToolIntent, tool: ToolIn) -> list[str]:
    """Required scalar parameters that, by the spec, say *which* record a tool acts on: named like a
    key (`path`, `course_id`, `applicationIdentifier`), described as one ("course identification
    string"), or named after a noun of the tool's name that is not the thing it sets (`course` of
    `delete_course_tag`, not `material` of `set_material`)."""
    props = _props(spec)
    ws = words(tool.name)
    # `set_material(material)`: the noun a setter names is the new value, not which record
    head = intent.head if intent.verb in SETTERS else None
    name_nouns = {singular(w) for w in ws} - {head}
    out = []
    for p in spec.input_schema.get("required") or []:
        if p not in props or main_type(props[p]) not in ("string", "integer") or props[p].get("enum"):
            continue
        s = snake(p)
        if s in VALUE_PARAMS or singular(s) == head:
            continue
        tail = s.split("_")[-1]
        stem = s.rsplit("_", 1)[0] if "_" in s and tail in IDENT_TAILS else s
        if s in KEY_NAMES or tail in IDENT_TAILS or IDENT_WORDS.search(str(props[p].get("description", ""))[:120]) \
                or singular(stem) in name_nouns:
            out.append(p)
    return out


def _row_args(env: Environment, svc: str, params: list[str]) -> dict[str, Any] | None:
    """Values for `params` that one record of the state holds together (a tag *of* that course)."""
    for table in env.services[svc].db.values():
        for row in list(table.rows.values())[:40]:
            vals = {}
            for p in params:
                s = snake(p)
                v = row.get(s, row.get(p))
                if v is None and (s in ("id", "uuid") or s == f"{table.entity}_id"):
                    v = row.get("id")
                if v is None or isinstance(v, (list, dict, bool)):
                    break
                vals[p] = v
            else:
                return vals
    return None


def _check_target(cls: type[Service], seed: int, name: str, spec: ToolSpec, intent: ToolIntent, tool: ToolIn, rec: _Rec) -> None:
    """A write aimed at a record acts on the record its arguments name: every identifying argument
    counts (a course that does not exist is not-found, the tag of another course is not removed), and
    a key the service holds for the noun the spec names (the vault's note paths) is found, not
    refused because the write was compiled over another collection."""
    if spec.kind == "world_model" or spec.read_only or not intent.write or intent.create:
        return
    idents = _identifying(spec, intent, tool)
    if not idents:
        return
    props = _props(spec)
    svc = cls.name
    problems: list[str] = []
    tested = False
    # 1. every identifying argument is used: an unknown value of any one of them is refused. The
    # probes come first on one state (a refused call changes nothing), the call they vary last.
    if len(idents) >= 2:
        env = Environment([cls], seed=seed)
        given = _row_args(env, svc, idents)
        base = schema_arguments(spec, env, svc, random.Random(73), given=given) if given else None
        if base is not None and all(base.get(p) == given[p] for p in given):  # type: ignore[index]
            ignored = []
            for p in idents:
                unk = _unknown(props[p], [base[p]])
                if unk is None:
                    continue
                if _call(env, svc, name, {**base, p: unk}).ok:
                    ignored.append(f"{p}={unk!r}")
                    env = Environment([cls], seed=seed)
            if _call(env, svc, name, base).ok:
                tested = True
                problems += [f"{x} (no such record) is ignored: the call still succeeds" for x in ignored]
    # 2. keys the service holds for a noun the spec names are found (the record as a whole: every
    # identifying argument from the same record)
    nouns = {singular(w) for w in words(" ".join([tool.name, tool.description[:400]] + [str(v.get("description", ""))[:200] for v in props.values()]))}
    env = None
    for p in idents:
        s = snake(p)
        if s in GENERIC_FIELDS or s.endswith("_id") or s.split("_")[-1] in ("id", "uuid"):
            continue
        env = env or Environment([cls], seed=seed)
        for table in list(env.services[svc].db.values()):
            if singular(table.entity) not in nouns or table.entity in ("logged_action", "simulation"):
                continue
            rows = [r for r in list(table.rows.values())[:20]
                    if all(isinstance(r.get(snake(q)), (str, int)) and fits(props[q], r.get(snake(q))) for q in idents)][:2]
            outcomes = []
            for r in rows:
                args = schema_arguments(spec, env, svc, random.Random(79), given={q: r[snake(q)] for q in idents})
                if args is None or any(args.get(q) != r[snake(q)] for q in idents):
                    continue
                obs = _call(env, svc, name, args)
                outcomes.append(obs.ok or obs.error_kind != "not_found")
            if outcomes:
                tested = True
                if not any(outcomes):
                    problems.append(f"{p}={rows[0][s]!r}, a {table.entity.replace('_', ' ')} the service holds, is not found: "
                                    "the write acts on another collection than the one its spec names")
    if problems:
        rec.add("target", name, "fail", "; ".join(problems))
    elif tested:
        rec.add("target", name, "pass")


# -- computations against reference implementations ---------------------------------------------

TZ_SRC = ("source_timezone", "from_timezone", "from_tz", "source_tz", "timezone_from", "from_zone", "source_zone", "from")
TZ_DST = ("target_timezone", "to_timezone", "to_tz", "target_tz", "timezone_to", "to_zone", "target_zone", "to", "destination_timezone")
TIME_P = ("time", "datetime", "date_time", "timestamp", "source_time", "date")


def _pick(props: dict[str, Any], names_: tuple[str, ...]) -> str | None:
    by = {snake(p): p for p in props}
    return next((by[n] for n in names_ if n in by), None)


def _numbers(v: Any) -> list[float]:
    return [float(x) for x in _scalars(v) if isinstance(x, (int, float)) and not isinstance(x, bool)]


def _admits(schema: Any, value: Any) -> bool:
    """Whether a parameter's enum (if it has one) lists `value`."""
    enum = schema.get("enum") if isinstance(schema, dict) else None
    return not isinstance(enum, list) or value in enum


def _check_document_convert(env: Environment, svc: str, name: str, props: dict[str, Any], content: str, to_format: str, rec: _Rec) -> None:
    """A converter of documents writes what it was given in the format asked for: a Markdown heading and
    bold words come out as HTML's `<h1>` and `<strong>`, and as plain text without the marks."""
    from_format = _pick(props, ("input_format", "from_format", "source_format"))
    source = "# Quarterly plan\n\nShip the **new** checkout by Friday."
    problems = []
    for fmt, want, unwanted in (("html", ("<h1>Quarterly plan</h1>", "<strong>new</strong>"), ("**",)),
                                ("txt", ("Quarterly plan", "Ship the new checkout by Friday."), ("**", "#", "<"))):
        if not _admits(props[to_format], fmt):
            fmt = "plain" if fmt == "txt" else fmt
        args = {content: source, to_format: fmt, **({from_format: "markdown"} if from_format else {})}
        obs = _call(env, svc, name, args)
        text = " ".join(str(x) for x in _scalars(obs.data)) if obs.ok else ""
        if not obs.ok:
            problems.append(f"markdown to {fmt}: {obs.error}")
        elif not all(w in text for w in want) or any(u in text.replace(source, "") for u in unwanted):
            problems.append(f"markdown to {fmt}: expected {want}, got {text[:80]!r}")
    rec.add("computation", name, "fail" if problems else "pass", "; ".join(problems))


def _check_computation(env: Environment, svc: str, name: str, spec: ToolSpec, tool: ToolIn, rec: _Rec) -> None:
    if spec.kind == "world_model":
        return
    props = _props(spec)
    ws = set(words(tool.name)) | set(words(tool.description.split(".")[0]))
    src, dst, tp = _pick(props, TZ_SRC), _pick(props, TZ_DST), _pick(props, TIME_P)
    if src and dst and tp and ws & {"time", "timezone", "timezones", "tz", "convert"}:
        _check_tz(env, svc, name, props, src, dst, tp, rec)
        return
    formula = clinical_formula(set(words(tool.name)), set(props))
    if formula is not None:
        _check_clinical(env, svc, name, spec, formula, rec)
        return
    to_format = _pick(props, ("output_format", "to_format", "target_format"))
    content = _pick(props, ("contents", "content", "text", "input", "markdown", "source"))
    # named for a conversion into documents' formats (ElevenLabs' `text_to_speech` converts text to mp3: no document)
    if to_format and content and set(words(tool.name)) & {"convert", "conversion", "converter"} \
            and (_admits(props[to_format], "html") or _admits(props[to_format], "markdown")):
        _check_document_convert(env, svc, name, props, content, to_format, rec)
        return
    arrays = [p for p, s in props.items() if main_type(s) == "array" and main_type(s.get("items") or {}) in ("number", "integer")]
    if arrays and ws & {"statistics", "stats", "mean", "average", "median", "stdev", "deviation", "variance"}:
        data = [2, 4, 4, 4, 5, 5, 7, 9]
        obs = _call(env, svc, name, {arrays[0]: data})
        if not obs.ok:
            rec.add("computation", name, "fail", f"statistics of {data}: {obs.error}")
            return
        got = _numbers(obs.data)
        want = statistics.median(data) if ws & {"median"} and not ws & {"mean", "average", "statistics", "stats"} else statistics.mean(data)
        ok = any(abs(g - want) < 1e-6 for g in got)
        rec.add("computation", name, "pass" if ok else "fail", "" if ok else f"statistics of {data}: expected {want}, got {got[:6]}")
        return
    fu, tu = _pick(props, ("from_unit", "unit_from", "source_unit", "from", "input_unit")), _pick(props, ("to_unit", "unit_to", "target_unit", "to", "output_unit"))
    val = _pick(props, ("value", "amount", "quantity", "number", "input"))
    if fu and tu and val and ws & {"convert", "conversion", "unit", "units"} and not ws & {"currency", "time", "timezone"}:
        _check_units(env, svc, name, props, fu, tu, val, rec)
        return
    if len(props) == 1 and epoch_conversion(set(words(tool.name)), {snake(p) for p in props}):
        _check_epoch(env, svc, name, props, rec)
        return
    numeric = [p for p, sub in props.items() if main_type(sub) in ("number", "integer")]
    if numeric and len(numeric) == len(props) and ws & MATH_WORDS:
        _check_math(env, svc, name, props, numeric, ws, rec)
        return
    lo, hi = _pick(props, ("min", "minimum", "low", "lower", "min_value", "from", "start")), _pick(props, ("max", "maximum", "high", "upper", "max_value", "to", "end"))
    if "random" in ws and lo and hi and main_type(props[lo]) in ("number", "integer"):
        integer = main_type(props[lo]) == "integer"
        bounds = (10, 20) if integer else (0.25, 0.75)
        bad = []
        for i in range(3):
            args = schema_arguments(spec, env, svc, random.Random(61 + i), given={lo: bounds[0], hi: bounds[1]})
            if args is None:
                rec.add("computation", name, "skip", "could not build arguments")
                return
            obs = _call(env, svc, name, args)
            vals = [v for k, v in (obs.data or {}).items() if k not in ("min", "max") and isinstance(v, (int, float)) and not isinstance(v, bool)] \
                if obs.ok and isinstance(obs.data, dict) else []
            bad += [v for v in vals if not bounds[0] <= v <= bounds[1]]
            if not obs.ok:
                bad.append(obs.error)
        rec.add("computation", name, "fail" if bad else "pass", f"outside [{bounds[0]}, {bounds[1]}]: {bad[:3]}" if bad else "")


def _check_epoch(env: Environment, svc: str, name: str, props: dict[str, Any], rec: _Rec) -> None:
    """Unix timestamps against `datetime`: 1700000000 is 2023-11-14 (UTC), 2024-01-01 is 1704067200."""
    (param, sub), = props.items()
    t = main_type(sub)
    arg: Any = {"number": 1700000000, "integer": 1700000000, "array": [1700000000], "string": "2024-01-01T00:00:00Z"}.get(t or "")
    if arg is None or not fits(sub, arg):
        rec.add("computation", name, "skip", "the schema does not take a timestamp or an ISO date")
        return
    obs = _call(env, svc, name, {param: arg})
    got = list(_scalars(obs.data)) if obs.ok else []
    ok = 1704067200 in got if t == "string" else any(isinstance(g, str) and "2023-11-14" in g for g in got)
    rec.add("computation", name, "pass" if ok else "fail", "" if ok else f"{arg!r}: expected {'1704067200' if t == 'string' else '2023-11-14'}"
            + ("" if obs.ok else f" ({obs.error})"))


MATH_WORDS = {"permutation", "permutations", "sin", "sine", "cos", "cosine", "tan", "tangent", "log", "logarithm", "gcd", "lcm", "prime", "quadratic", "radians", "degrees"}


def _check_math(env: Environment, svc: str, name: str, props: dict[str, Any], numeric: list[str], ws: set[str], rec: _Rec) -> None:
    """Functions of numbers against Python's `math`: the argument reaches the function the name says,
    in the direction it says (degrees to radians, not back)."""
    base = _pick(props, ("base", "log_base"))
    numeric = [p for p in numeric if p != base] + ([base] if base else [])  # the number first, then the base
    integer = any(main_type(props[p]) == "integer" for p in numeric)
    cases: list[tuple[list[float], Any]]
    if ws & {"sin", "sine", "cos", "cosine", "tan", "tangent"}:
        fn = math.sin if ws & {"sin", "sine"} else math.cos if ws & {"cos", "cosine"} else math.tan
        cases = [([0.5], fn(0.5)), ([1.25], fn(1.25))]
    elif ws & {"log", "logarithm"}:
        cases = [([8, 2], 3.0) if len(numeric) > 1 else ([math.e ** 2], 2.0)]
    elif ws & {"gcd", "lcm"}:
        cases = [([12, 18], 6 if "gcd" in ws else 36), ([7, 5], 1 if "gcd" in ws else 35)]
    elif ws & {"permutation", "permutations"} and "n" in numeric:
        numeric = ["n"] + [p for p in numeric if p != "n"]  # n items, then how many of them (`k`)
        cases = [([5, 2], math.perm(5, 2)), ([6, 6], math.perm(6, 6))]
    elif "prime" in ws:
        cases = [([97], True), ([91], False)]
    elif "quadratic" in ws:
        cases = [([1, -5, 6], {2.0, 3.0})]
    else:
        to_radians = bool({snake(p) for p in numeric} & {"degrees", "deg", "degree"})
        cases = [([180], math.pi if to_radians else math.degrees(180))]
    problems = []
    for xs, want in cases:
        if len(numeric) < len(xs) or (integer and any(x != int(x) for x in xs)):
            rec.add("computation", name, "skip", "the schema does not take these numbers")
            return
        obs = _call(env, svc, name, dict(zip(numeric, [int(x) if integer else x for x in xs])))
        got = _scalars(obs.data) if obs.ok else []
        if isinstance(want, bool):
            ok = want in [g for g in got if isinstance(g, bool)]
        elif isinstance(want, set):
            ok = want <= {float(g) for g in got if isinstance(g, (int, float)) and not isinstance(g, bool)}
        else:
            ok = any(abs(g - want) <= 1e-6 * max(1.0, abs(want)) for g in _numbers(obs.data)) if obs.ok else False
        if not ok:
            problems.append(f"{xs}: expected {want}" + ("" if obs.ok else f" ({obs.error})"))
    rec.add("computation", name, "fail" if problems else "pass", "; ".join(problems[:3]))


def _check_clinical(env: Environment, svc: str, name: str, spec: ToolSpec, formula: str, rec: _Rec) -> None:
    """A clinical calculator answers the textbook example of the formula it is named for (clinical.py)."""
    props = _props(spec)
    example, key, want = WORKED[formula]
    given: dict[str, Any] = {}
    for k, v in example.items():  # each value under the tool's own parameter that names it
        p = next((p for p in props if snake(p) == k), None) or next((p for p in props if k.split("_")[-1] in words(p)), None)
        if p is not None:
            given[p] = ("male" if v else "female") if isinstance(v, bool) and main_type(props[p]) == "string" else v
    args = schema_arguments(spec, env, svc, random.Random(5), given=given)  # what the formula does not use, any valid value
    if args is None:
        rec.add("computation", name, "skip", "the schema does not take the worked example")
        return
    obs = _call(env, svc, name, args)
    got = obs.data.get(key) if obs.ok and isinstance(obs.data, dict) else None
    ok = got == want if isinstance(want, str) else isinstance(got, (int, float)) and abs(got - want) <= 0.15
    rec.add("computation", name, "pass" if ok else "fail",
            "" if ok else f"{formula} of {given}: expected {key} {want}, got {obs.error or got}")


def _check_tz(env: Environment, svc: str, name: str, props: dict[str, Any], src: str, dst: str, tp: str, rec: _Rec) -> None:
    problems = []
    for when, a, b in (("2024-07-01T12:00:00", "America/New_York", "Europe/London"),
                       ("2024-01-15T12:00:00", "America/New_York", "Europe/London"),
                       ("2024-07-01T12:00:00", "UTC", "Asia/Kathmandu")):
        want = datetime.fromisoformat(when).replace(tzinfo=ZoneInfo(a)).astimezone(ZoneInfo(b)).strftime("%H:%M")
        args = {src: a, dst: b, tp: when}
        if not all(fits(props[k], v) for k, v in args.items()):
            rec.add("computation", name, "skip", "the schema does not take IANA zones and ISO times")
            return
        obs = _call(env, svc, name, args)
        if not obs.ok:
            problems.append(f"{a} -> {b}: {obs.error}")
        elif not any(isinstance(s, str) and want in s for s in _scalars(obs.data)):
            problems.append(f"{when} {a} -> {b}: expected {want}")
    rec.add("computation", name, "fail" if problems else "pass", "; ".join(problems))


_REF_UNITS = {"m": 1.0, "meter": 1.0, "meters": 1.0, "km": 1000.0, "kilometer": 1000.0, "kilometers": 1000.0, "mi": 1609.344,
              "mile": 1609.344, "miles": 1609.344, "ft": 0.3048, "feet": 0.3048, "foot": 0.3048, "cm": 0.01, "centimeters": 0.01,
              "inch": 0.0254, "inches": 0.0254, "in": 0.0254}


def _check_units(env: Environment, svc: str, name: str, props: dict[str, Any], fu: str, tu: str, val: str, rec: _Rec) -> None:
    enum = [u for u in (props[fu].get("enum") or []) if isinstance(u, str)]
    problems = []
    for u in enum[:12]:
        obs = _call(env, svc, name, {fu: u, tu: u, val: 1})
        if not obs.ok:
            problems.append(f"its own unit {u!r} rejected: {obs.error}")
    lengths = [u for u in (enum or ["km", "mi"]) if u.lower() in _REF_UNITS][:2]
    if len(lengths) == 2 and all(fits(props[k], v) for k, v in ((fu, lengths[0]), (tu, lengths[1]))):
        want = _REF_UNITS[lengths[0].lower()] / _REF_UNITS[lengths[1].lower()]
        obs = _call(env, svc, name, {fu: lengths[0], tu: lengths[1], val: 1})
        if obs.ok and not any(abs(g - want) <= 1e-3 * max(1.0, abs(want)) for g in _numbers(obs.data)):
            problems.append(f"1 {lengths[0]} in {lengths[1]}: expected {want:.6g}")
    rec.add("computation", name, "fail" if problems else "pass", "; ".join(problems[:3]))


GENERIC_KEYS = set("id name title description created updated at url link snippet score value items total next offset not found "
                   "result results data content text message status type kind label cursor page count".split())


FILLER_KEYS = {"id", "name", "description", "value", "updated", "created", "at", "title"}
SEARCHY = {"search", "web", "snippet", "google", "bing", "duckduckgo", "serp", "crawl", "scrape", "websearch"}
QUERY_PARAMS = {"query", "q", "search", "search_query", "keyword", "keywords", "search_term", "term", "text_query", "search_text"}


def _keys(data: Any, deepest: int = 2, depth: int = 0) -> set[str]:
    """Every key of an answer down to `deepest` levels (a list stands for its first item)."""
    if depth > deepest:
        return set()
    if isinstance(data, list):
        return _keys(data[0], deepest, depth + 1) if data else set()
    if not isinstance(data, dict):
        return set()
    return set(data) | {k for v in data.values() for k in _keys(v, deepest, depth + 1)}


def _key_words(data: Any) -> set[str]:
    return {singular(w) for k in _keys(data) for w in words(k)}


def _is_search(tool: ToolIn) -> bool:
    """Whether the spec describes a free-text search (of the web, of documents), whose answers may
    rightly be hits with a title, a url, a snippet and a score. Finding, querying or looking up
    records by a filter (`mongodb find`, `find_assets_by_type`) is not: those answer records."""
    text = " ".join([tool.name, tool.description[:400], _schema_text(tool.output_schema)])
    if {singular(w) for w in words(text)} & SEARCHY:
        return True
    props = tool.input_schema.get("properties") or {}
    return any(snake(p) in QUERY_PARAMS for p in props)


# A read named for one of these values answers it: some key of its answer names it.
NAMED_VALUES = {"uri", "url", "html", "markdown", "count", "summary", "ratio", "price", "balance", "slot", "transcript"}


CODEC_VERBS = frozenset({"encode", "decode", "escape", "unescape"})


# "Get the version of the server", "Returns the current price of a token": a read whose description
# says which value it gets answers that value (some key of its answer names it).
PROMISED_VALUES = NAMED_VALUES | {"version", "email", "address", "size", "duration", "temperature", "timezone", "path", "length",
                                  "owner", "author", "language", "currency", "rate", "score", "rating", "location", "weight"}
_PROMISE = re.compile(r"^\s*(?:get|gets|retrieve|retrieves|fetch|fetches|return|returns|show|shows|read|reads|look up|looks up)\s+"
                      r"(?:the\s+|a\s+|an\s+|its\s+|current\s+)*([a-z]+)\s+(?:of|for)\b", re.I)


# names of measures that begin with a promised word: the balance of power is no balance, a rate of change no rate
_MEASURE_NAMES = re.compile(r"\b(?:balance of power|rate of change)\b", re.I)


def promised_value(description: str) -> str | None:
    if _MEASURE_NAMES.search(description or ""):
        return None
    m = _PROMISE.match(description or "")
    word = singular(m.group(1).lower()) if m else None
    return word if word in PROMISED_VALUES else None


def _listed_rows(env: Environment, svc: str, name: str) -> list[dict[str, Any]]:
    """The first stored records of the collection a compiled tool reads (none for a tool of no collection)."""
    plan = getattr(type(env.services[svc]), "_tools", {}).get(name)
    table = env.services[svc].db.get(plan.collection) if plan is not None and plan.collection else None
    return list(table.rows.values())[:5] if table is not None else []


def _check_domain(env: Environment, svc: str, name: str, spec: ToolSpec, tool: ToolIn, rec: _Rec) -> None:
    """A read answers in its own domain: not with placeholder text, not without the value its name
    asks for, and, when it is no search, not with generic search hits (a title, a url, a snippet, a
    score and the arguments echoed back): a deployment scaled or a console log read is not a web page."""
    if spec.kind == "world_model" or not spec.read_only:
        return
    for seed in range(71, 75):  # arguments that find something: an empty page says nothing of the records
        args = schema_arguments(spec, env, svc, random.Random(seed))
        obs = _call(env, svc, name, args) if args is not None else None
        if obs is None or not obs.ok:
            continue
        data = obs.data.get("items") if isinstance(obs.data, dict) and isinstance(obs.data.get("items"), list) else obs.data
        if not (isinstance(data, list) and not data):
            break
    else:
        # nothing found (NASA's `cmr(keyword)` matched no keyword drawn): the records it would list are
        # still the service's own, and placeholder text in them is what any finding call would answer
        if any(PLACEHOLDER in json.dumps(row) for row in _listed_rows(env, svc, name)):
            rec.add("domain", name, "fail", "placeholder text in the records it lists")
        return
    if PLACEHOLDER in obs.content:
        rec.add("domain", name, "fail", "placeholder text where the spec asks for content")
        return
    named = singular(words(name)[-1]) if words(name) else ""
    if set(words(name)) & CODEC_VERBS:
        named = ""  # `encodeUrl`, `decodeHtml`: the format the text is turned into, not a value the tool reads
    if named in NAMED_VALUES and not any(named in k.lower() or (named == "price" and k.lower() in PRICE_FIELDS) for k in _keys(data, 3)):
        rec.add("domain", name, "fail", f"no {named} in the answer, which the tool is named for")
        return
    promised = promised_value(tool.description)
    if promised and not any(promised in k.lower() for k in _keys(data, 3)):
        rec.add("domain", name, "fail", f"no {promised} in the answer, which the description says it gets")
        return
    if _is_search(tool):
        return
    echoed = {singular(w) for p in (args or {}) for w in words(p)}
    keys = _key_words(data)
    own = keys - GENERIC_KEYS - echoed
    if own:
        rec.add("domain", name, "pass")
    elif {"snippet", "score"} <= keys:
        rec.add("domain", name, "fail", "a generic search hit (title, url, snippet, score) for a tool that is no search")
    elif keys - echoed <= FILLER_KEYS:
        rec.add("domain", name, "fail", "a generic record (a name, a description, a value) that says nothing the spec asks for")
    else:
        rec.add("domain", name, "pass")


def _schema_text(schema: dict[str, Any] | None) -> str:
    return " ".join(_key_words_schema(schema or {}))


def _key_words_schema(schema: dict[str, Any], depth: int = 0) -> list[str]:
    if depth > 3 or not isinstance(schema, dict):
        return []
    out: list[str] = []
    for k, v in (schema.get("properties") or {}).items():
        out.append(k)
        out += _key_words_schema(v, depth + 1)
    out += _key_words_schema(schema.get("items") or {}, depth + 1)
    return out


def _check_output_fields(env: Environment, svc: str, name: str, spec: ToolSpec, tool: ToolIn, rec: _Rec) -> None:
    promised = [k for k in ((tool.output_schema or {}).get("required") or []) if isinstance(k, str)]
    if not promised or spec.kind == "world_model":
        return
    args = schema_arguments(spec, env, svc, random.Random(67))
    obs = _call(env, svc, name, args) if args is not None else None
    if obs is None or not obs.ok or not isinstance(obs.data, dict):
        rec.add("output_fields", name, "skip", "no successful call")
        return
    missing = [k for k in promised if k not in obs.data]
    rec.add("output_fields", name, "fail" if missing else "pass", f"missing {missing}" if missing else "")


# -- entry points -------------------------------------------------------------------------------

def check_fidelity(cls: type[Service], server: ServerSpec, seed: int = 7) -> list[CheckResult]:
    """Every fidelity check that applies to a compiled service's tools, against `server`'s spec."""
    rec = _Rec(cls.name)
    specs = cls.tool_specs()
    plan_tools = getattr(cls, "_tools", {})
    by_original = {t.name: t for t in server.tools}
    tools: dict[str, ToolIn] = {}
    for name in specs:
        original = plan_tools[name].original if name in plan_tools else name
        if original in by_original:
            tools[name] = by_original[original]
    intents = {n: ToolIntent(t) for n, t in tools.items()}
    declared = _declared_fields(server)
    env = Environment([cls], seed=seed)
    # a key-value store's commands are checked by what the store does (`keyspace`), not as records
    commands = {n: c for n, t in tools.items() if (c := kv_command(t.name))} if is_kv_store([t.name for t in server.tools]) else {}
    # so are a git client's, by what git does to one repository (`git`)
    git_commands = {n: c for n, t in tools.items() if (c := git_command(t.name))} \
        if is_git(set(words(server.name)) | set(words(server.description or "")), [t.name for t in server.tools]) else {}
    # and a tensor store's, by what NumPy computes (`tensors`)
    tensor_commands = {n: c for n, t in tools.items() if (c := tensor_command(t.name))} \
        if is_tensor_store([t.name for t in server.tools]) else {}
    # reads before writes, deletes last: every read sees the seeded records
    for name, tool in sorted(tools.items(), key=lambda kv: (specs[kv[0]].destructive, not specs[kv[0]].read_only, kv[0])):
        spec = specs[name]
        _check_kind(name, spec, intents[name], rec)
        _check_output_fields(env, cls.name, name, spec, tool, rec)
        if name in commands or name in git_commands or name in tensor_commands:
            continue
        _check_keyed(env, cls.name, name, spec, intents[name], rec)
        _check_object_input(env, cls.name, name, spec, tool, rec)
        _check_filters(env, cls.name, name, spec, intents[name], declared, rec)
        _check_computation(env, cls.name, name, spec, tool, rec)
        _check_domain(env, cls.name, name, spec, tool, rec)
        _check_target(cls, seed, name, spec, intents[name], tool, rec)
    _check_sees_writes(cls, seed, {n: intents.get(n) or ToolIntent(ToolIn(name=n, ident=n, input_schema={})) for n in specs}, rec)
    _check_session(cls, seed, tools, rec)
    _check_directory(cls, seed, tools, intents, rec)
    _check_database(cls, seed, tools, rec)
    _check_keyspace(cls, seed, tools, commands, rec)
    _check_home(cls, seed, server, tools, rec)
    _check_git(cls, seed, tools, git_commands, rec)
    _check_tensors(cls, seed, tools, tensor_commands, rec)
    return rec.checks


def _check_tensors(cls: type[Service], seed: int, tools: dict[str, ToolIn], commands: dict[str, str], rec: _Rec) -> None:
    """A tensor store's tools compute what NumPy computes (tensor.py). The check stores its own tensors
    with the store's create tool (a 2x2 matrix and another, a singular one, a 2x3 one, two 3-vectors),
    then each computation must answer NumPy's numbers for them (the sum, the product, the inverse, the
    determinant, the rank, the eigenvalues, the singular values, R's diagonal up to sign, the
    projection, the dot and cross products), refuse a non-square determinant, a singular inverse and a
    name the store does not hold; a view answers what was stored, an in-place scaling is what the view
    then shows, and a deleted tensor is gone. Arguments go by the spec's own parameter names."""
    if not commands:
        return
    env, svc = Environment([cls], seed=seed), cls.name
    by_cmd = {c: n for n, c in commands.items()}
    problems: dict[str, list[str]] = {n: [] for n in commands}
    if "create_tensor" not in by_cmd:
        for n in commands:
            rec.add("tensors", n, "skip", "the spec has no tool that stores a tensor")
        return

    def call(cmd: str, *names: str, **given: Any) -> Observation | None:
        tool = by_cmd.get(cmd)
        if tool is None:
            return None
        props = tools[tool].input_schema.get("properties") or {}
        args: dict[str, Any] = dict(zip(tensor_name_params(props), names))
        for want, v in given.items():
            p = next((p for p in props if snake(p) == want and p not in args), None)
            if p is not None:
                args[p] = v
        return _call(env, svc, tool, args)

    def numbers(obs: Observation | None) -> list[float]:
        """Every number of an answer in order, however deep (eigenvectors lie three levels down)."""
        def flat(v: Any) -> Iterable[float]:
            if isinstance(v, dict):
                v = list(v.values())
            if isinstance(v, list):
                for x in v:
                    yield from flat(x)
            elif isinstance(v, (int, float)) and not isinstance(v, bool):
                yield float(v)
        return list(flat(obs.data)) if obs is not None and obs.ok else []

    def expect(cmd: str, ok: bool, why: str) -> None:
        if cmd in by_cmd and not ok:
            problems[by_cmd[cmd]].append(why)

    def holds(cmd: str, obs: Observation | None, want: Any, what: str) -> None:
        """The answer's numbers are NumPy's (all of them, in order, for a whole result; among them for a few)."""
        if obs is None:
            return
        flat = [float(x) for x in np.asarray(want, dtype=float).reshape(-1)]
        got = numbers(obs)
        ok = obs.ok and (len(got) >= len(flat)) and any(all(abs(got[i + j] - flat[j]) < 1e-6 for j in range(len(flat)))
                                                       for i in range(len(got) - len(flat) + 1))
        expect(cmd, ok, f"{what}: expected {flat[:6]}, got " + (f"{got[:6]}" if obs.ok else f"an error ({obs.error})"))

    def among(cmd: str, obs: Observation | None, want: Iterable[float], what: str) -> None:
        if obs is None:
            return
        got = numbers(obs)
        missing = [w for w in want if not any(abs(abs(g) - abs(w)) < 1e-6 for g in got)]
        expect(cmd, obs.ok and not missing, f"{what}: {missing[:3]} not in the answer" if obs.ok else f"{what}: an error ({obs.error})")

    a, b = np.array([[4.0, 7.0], [2.0, 6.0]]), np.array([[1.0, 2.0], [3.0, 4.0]])
    sing, wide, u, w = np.array([[1.0, 2.0], [2.0, 4.0]]), np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), np.array([1.0, 2.0, 3.0]), np.array([4.0, 5.0, 6.0])
    for name, t in (("zq_a", a), ("zq_b", b), ("zq_s", sing), ("zq_p", wide), ("zq_u", u), ("zq_w", w)):
        made = call("create_tensor", name, shape=list(t.shape), values=[float(x) for x in t.reshape(-1)], data=[float(x) for x in t.reshape(-1)])
        expect("create_tensor", made is not None and made.ok, f"storing a {t.shape} tensor failed: {made.error if made else ''}")
    bad = call("create_tensor", "zq_bad", shape=[2, 2], values=[1.0, 2.0, 3.0], data=[1.0, 2.0, 3.0])
    expect("create_tensor", bad is not None and not bad.ok, "3 values were stored as a 2x2 tensor")
    holds("view_tensor", call("view_tensor", "zq_a"), a, "the view of a stored 2x2 matrix")
    holds("add_matrices", call("add_matrices", "zq_a", "zq_b"), a + b, "A + B")
    holds("subtract_matrices", call("subtract_matrices", "zq_a", "zq_b"), a - b, "A - B")
    holds("multiply_matrices", call("multiply_matrices", "zq_a", "zq_b"), a @ b, "A @ B")
    holds("transpose", call("transpose", "zq_p"), wide.T, "the transpose of a 2x3 matrix")
    holds("matrix_inverse", call("matrix_inverse", "zq_a"), np.linalg.inv(a), "the inverse of A")
    holds("determinant", call("determinant", "zq_a"), np.linalg.det(a), "det(A)")
    holds("rank", call("rank", "zq_s"), np.linalg.matrix_rank(sing), "the rank of a singular 2x2 matrix")
    among("compute_eigen", call("compute_eigen", "zq_a"), [float(x.real) for x in np.linalg.eigvals(a)], "A's eigenvalues")
    among("svd_decompose", call("svd_decompose", "zq_p"), list(np.linalg.svd(wide, compute_uv=False)), "the singular values")
    among("qr_decompose", call("qr_decompose", "zq_a"), list(np.diag(np.linalg.qr(a)[1])), "R's diagonal")
    holds("vector_dot_product", call("vector_dot_product", "zq_u", "zq_w"), u @ w, "u . w")
    holds("vector_cross_product", call("vector_cross_product", "zq_u", "zq_w"), np.cross(u, w), "u x w")
    holds("vector_project", call("vector_project", "zq_u", new_vector=list(w), onto=list(w)), (u @ w) / (w @ w) * w, "u projected onto w")
    basis = np.array([[1.0, 1.0], [0.0, 1.0]])
    holds("change_basis", call("change_basis", "zq_a", new_basis=basis.tolist(), basis=basis.tolist()), np.linalg.inv(basis) @ a @ basis,
          "A in a new basis")
    found = call("find_orthonormal_basis", "zq_s")
    expect("find_orthonormal_basis", found is not None and found.ok and len(numbers(found)) == 2
           and abs(math.hypot(*numbers(found)) - 1) < 1e-6, "a rank-1 matrix's column space has one unit basis vector")
    for cmd, name, why in (("determinant", "zq_p", "the determinant of a 2x3 matrix"), ("matrix_inverse", "zq_s", "the inverse of a singular matrix"),
                           ("view_tensor", "zq_unknown_4711", "a tensor that was never stored"),
                           ("add_matrices", "zq_unknown_4711", "a sum with a tensor that was never stored")):
        refused = call(cmd, name, name)
        expect(cmd, refused is None or not refused.ok, f"{why} was answered")
    if (scaled := call("scale_matrix", "zq_b", scale_factor=2.0, factor=2.0, in_place=True)) is not None:
        holds("scale_matrix", scaled, 2 * b, "B scaled by 2")
        holds("scale_matrix", call("view_tensor", "zq_b"), 2 * b, "B after scaling it in place")
    if (gone := call("delete_tensor", "zq_u")) is not None:
        expect("delete_tensor", gone.ok, f"deleting a stored tensor failed: {gone.error}")
        expect("delete_tensor", not (call("view_tensor", "zq_u") or Observation("", False, "", {})).ok, "a deleted tensor is still viewed")
    for n in commands:
        rec.add("tensors", n, "fail" if problems[n] else "pass", "; ".join(problems[n][:2]))


_GIT_ARGS = {"repo": ("repo_path", "repository", "repo", "repository_path", "repo_url", "cwd", "path", "directory"),
             "files": ("files", "paths", "file_paths", "pathspec", "file", "file_path"), "message": ("message", "commit_message", "msg"),
             "branch": ("branch_name", "branch", "target", "ref", "name")}


def _check_git(cls: type[Service], seed: int, tools: dict[str, ToolIn], commands: dict[str, str], rec: _Rec) -> None:
    """A git client's commands act on one repository as git does (git.py): a file the status shows
    changed is staged once added; a commit records it (the log's newest message is the commit's) and
    leaves it neither staged nor untracked; a commit with nothing staged and a checkout of a branch that
    does not exist are refused; a reset unstages. Arguments go by the spec's own parameter names."""
    if not commands:
        return
    by_cmd = {c: n for n, c in commands.items()}
    missing = [c for c in ("status", "add", "commit", "log") if c not in by_cmd]
    if missing:
        for name in commands:
            rec.add("git", name, "skip", f"the spec has no {missing[0]} to check against")
        return
    env, svc, problems = Environment([cls], seed=seed), cls.name, []

    def call(cmd: str, **values: Any) -> Observation:
        props = tools[by_cmd[cmd]].input_schema.get("properties") or {}
        args: dict[str, Any] = {}
        for p, schema in props.items():
            for role, names in _GIT_ARGS.items():
                if snake(p) in names and (role == "repo" or role in values) and p not in args:
                    value = REPO_PATH if role == "repo" else values[role]
                    args[p] = value if role != "files" or main_type(schema if isinstance(schema, dict) else {}) == "array" else value[0]
        return _call(env, svc, by_cmd[cmd], args)

    def paths(obs: Observation, *keys: str) -> list[str]:
        data = obs.data if obs.ok and isinstance(obs.data, dict) else {}
        return [x["path"] if isinstance(x, dict) else str(x) for k in keys for x in data.get(k) or []]

    before = call("status")
    changed = paths(before, "untracked", "unstaged")
    if not changed:
        problems.append(f"the status shows no change to stage ({before.error or 'nothing changed'})")
    else:
        path, message = changed[0], "Record the fidelity check"
        added = call("add", files=[path])
        if not added.ok or path not in paths(call("status"), "staged"):
            problems.append(f"{path} added is not staged" + (f" ({added.error})" if not added.ok else ""))
        done = call("commit", message=message)
        log = call("log")
        newest = (log.data.get("commits") or [{}])[0].get("message") if log.ok and isinstance(log.data, dict) else None
        if not done.ok or newest != message:
            problems.append(f"the log's newest commit is {newest!r}, not the one just made" + (f" ({done.error})" if not done.ok else ""))
        if path in paths(call("status"), "staged", "untracked"):
            problems.append(f"{path} is still staged or untracked after the commit")
        if call("commit", message=message).ok:
            problems.append("a commit with nothing staged was made")
        rest = [p for p in paths(call("status"), "untracked", "unstaged") if p != path]
        if "reset" in by_cmd and rest:
            call("add", files=[rest[0]])
            if not call("reset").ok or rest[0] in paths(call("status"), "staged"):
                problems.append(f"{rest[0]} is still staged after a reset")
    if "checkout" in by_cmd and call("checkout", branch="zz-no-such-branch").ok:
        problems.append("a branch that does not exist was checked out")
    for name in commands:
        rec.add("git", name, "fail" if problems else "pass", "; ".join(problems[:2]))


_ENTITY_EXAMPLE = re.compile(r"['\"]([a-z_]+\.[a-z0-9_]+)['\"]")


def _check_home(cls: type[Service], seed: int, server: ServerSpec, tools: dict[str, ToolIn], rec: _Rec) -> None:
    """A Home Assistant switches its devices as its spec says (home.py): the entity its description
    names ('light.living_room') switched off reads off, toggled reads on, and an entity that does not
    exist is not found."""
    if not is_home(set(words(server.name)) | set(words(server.description or "")), [t.name for t in server.tools]):
        return
    cmds = {c: n for n, t in tools.items() if (c := home_command(t.name))}
    act, get = cmds.get("entity_action"), cmds.get("get_entity")
    if act is None or get is None:
        return
    example = _ENTITY_EXAMPLE.search(tools[act].description) or _ENTITY_EXAMPLE.search(tools[get].description)
    if example is None:
        rec.add("home", act, "skip", "the spec names no entity to switch")
        return
    eid, env, problems = example.group(1), Environment([cls], seed=seed), []
    props = tools[act].input_schema.get("properties") or {}
    rest = {p: "" for p in tools[act].input_schema.get("required") or [] if p not in ("entity_id", "action") and fits(props.get(p, {}), "")}
    for action, want in (("off", "off"), ("toggle", "on"), ("off", "off")):
        done = _call(env, cls.name, act, {"entity_id": eid, "action": action, **rest})
        got = _call(env, cls.name, get, {"entity_id": eid})
        state = got.data.get("state") if got.ok and isinstance(got.data, dict) else None
        if not done.ok or state != want:
            problems.append(f"after {action!r} {eid} reads {state!r}, not {want!r}" + (f" ({done.error})" if not done.ok else ""))
    if _call(env, cls.name, get, {"entity_id": "light.zz_unknown_4711"}).ok:
        problems.append("an entity that does not exist was found")
    for name in (act, get):
        rec.add("home", name, "fail" if problems else "pass", "; ".join(problems[:2]))


def _check_keyspace(cls: type[Service], seed: int, tools: dict[str, ToolIn], commands: dict[str, str], rec: _Rec) -> None:
    """The commands of a key-value store act on one keyspace as the store's own do (kv.py): a value a
    write puts under a key is what the read of that type answers (`set`/`get`, `hset`/`hget`,
    `lpush`/`lrange`, `sadd`/`smembers`, `zadd`/`zrange`, `xadd`/`xrange`, `json_set`/`json_get`), a
    removal removes it, `type` names its type, a scan lists it, and a read of another type refuses it.
    The arguments come from the spec's parameters, not from what the tools were compiled to."""
    if not commands:
        return
    env, svc = Environment([cls], seed=seed), cls.name
    by_cmd = {c: n for n, c in commands.items()}
    problems: dict[str, list[str]] = {n: [] for n in commands}
    ran: set[str] = set()

    def call(cmd: str, target: str, /, **given: Any) -> Observation | None:
        name = by_cmd.get(cmd)
        if name is None:
            return None
        props = tools[name].input_schema.get("properties") or {}
        kp = kv_key_param(cmd, props)
        args = {kp: target} if kp else {}
        for want, v in given.items():
            p = next((p for p in props if snake(p) == want and p != kp), None)
            if p is not None:
                args[p] = v
        ran.add(name)
        return _call(env, svc, name, args)

    def expect(cmd: str, ok: bool, why: str) -> None:
        if cmd in by_cmd and not ok:
            problems[by_cmd[cmd]].append(why)

    def got(obs: Observation | None) -> Any:
        return obs.data if obs is not None and obs.ok else None

    def has(obs: Observation | None, value: Any) -> bool:
        return value in list(_scalars(got(obs)))

    size = got(call("dbsize", ""))
    put = call("set", "zq:str", value="zq-1")
    expect("set", put is None or put.ok, f"set failed: {put.error if put else ''}")
    if put is not None and put.ok:
        expect("get", has(call("get", "zq:str"), "zq-1"), "get does not answer what set put")
        expect("type", has(call("type", "zq:str"), "string"), "type does not say a set key is a string")
        grown = got(call("dbsize", ""))
        expect("dbsize", size is None or (isinstance(grown, dict) and list(_scalars(grown)) != list(_scalars(size))), "dbsize did not count a new key")
        expect("scan_keys", has(call("scan_keys", "", pattern="zq:*", count=100), "zq:str"), "scan_keys does not list a key set")
        lasting = call("expire", "zq:str", expire_seconds=3600, seconds=3600, expiration=3600)
        expect("expire", lasting is None or (lasting.ok and has(call("get", "zq:str"), "zq-1")), "expire lost the key or failed")
        moved = call("rename", "zq:str", new_key="zq:str2")
        if moved is not None:
            expect("rename", moved.ok and has(call("get", "zq:str2"), "zq-1") and not (call("get", "zq:str") or moved).ok,
                   "rename did not move the value to the new key")
            call("rename", "zq:str2", new_key="zq:str")
    steps = [("hset", "hget", "zq:hash", {"key": "f1", "field": "f1", "value": "v1"}, {"key": "f1", "field": "f1"}, "v1"),
             ("lpush", "lrange", "zq:list", {"value": "v1"}, {"start": 0, "stop": -1, "end": -1}, "v1"),
             ("rpush", "lrange", "zq:list2", {"value": "v1"}, {"start": 0, "stop": -1, "end": -1}, "v1"),
             ("sadd", "smembers", "zq:set", {"value": "v1", "member": "v1"}, {}, "v1"),
             ("zadd", "zrange", "zq:zset", {"member": "v1", "score": 2}, {"start": 0, "end": -1, "stop": -1}, "v1"),
             ("xadd", "xrange", "zq:stream", {"fields": {"f1": "v1"}}, {}, "v1"),
             ("json_set", "json_get", "zq:json", {"path": "$", "value": {"f1": "v1"}}, {"path": "$"}, "v1")]
    for write, read, key, wargs, rargs, value in steps:
        done = call(write, key, **wargs)
        if done is None:
            continue
        expect(write, done.ok, f"{write} failed: {done.error}")
        if done.ok:
            expect(read, has(call(read, key, **rargs), value), f"{read} does not answer what {write} put")
            expect("get", not (call("get", key) or Observation("", True, "", {})).ok, f"get reads the {write} key {key} as a string")
            expect("scan_all_keys", has(call("scan_all_keys", "", pattern="zq:*"), key), f"scan_all_keys does not list {key}")
            if write == "hset":
                expect("hgetall", has(call("hgetall", key), value), "hgetall does not answer a field hset put")
                expect("hexists", True in list(_scalars(got(call("hexists", key, key="f1", field="f1")))), "hexists does not see a field hset put")
            if write == "lpush":
                expect("llen", 1 in list(_scalars(got(call("llen", key)))), "llen does not count what lpush put")
                expect("lpop", has(call("lpop", key), value), "lpop does not answer what lpush put")
            if write == "rpush":
                expect("rpop", has(call("rpop", key), value), "rpop does not answer what rpush put")
            if write == "xadd" and isinstance(got(done), dict):
                entry = next((v for k, v in got(done).items() if k in ("id", "entry_id")), None)
                if entry is not None and call("xdel", key, entry_id=entry, id=entry) is not None:
                    expect("xdel", not has(call("xrange", key), value), "xdel left the entry in the stream")
            if write == "json_set" and call("json_del", key, path="$.f1") is not None:
                expect("json_del", not has(call("json_get", key, path="$"), value), "json_del left the value in place")
    removals = [("hdel", "hexists", "zq:hash", {"key": "f1", "field": "f1"}), ("srem", "smembers", "zq:set", {"value": "v1", "member": "v1"}),
                ("zrem", "zrange", "zq:zset", {"member": "v1"})]
    for remove, read, key, args in removals:
        done = call(remove, key, **args)
        if done is not None:
            after = call(read, key, **args, start=0, end=-1, stop=-1)
            expect(remove, done.ok and not has(after, "v1") and True not in list(_scalars(got(after))), f"{remove} left the member in place")
    if put is not None and put.ok and call("delete", "zq:str") is not None:
        gone = call("get", "zq:str")
        expect("delete", gone is not None and not gone.ok, "get still answers a deleted key")
    for n, found in problems.items():
        if n in ran or found:
            rec.add("keyspace", n, "fail" if found else "pass", "; ".join(found))


def _check_database(cls: type[Service], seed: int, tools: dict[str, ToolIn], rec: _Rec) -> None:
    """The SQL tools of a service run their statements on one database (sql.py): a read answers what
    SQL says (`SELECT 6 * 7` is 42) and refuses a change; a table a write creates, and the row it
    inserts, are what a read selects, `list_tables` lists and `describe_table` describes. What each tool
    should do comes from its spec's name, description and parameters, not from what it was compiled to."""
    from compoworld.synthesis.sql import PROBES, SQL_TABLES, catalog_kind, sql_kind, statement_param

    props = {n: t.input_schema.get("properties") or {} for n, t in tools.items()}
    runs = {n: k for n, t in tools.items() if (k := sql_kind(t.name, t.description or "", props[n]))}
    if not runs:
        return
    kinds = runs | {n: k for n, t in tools.items() if n not in runs and (k := catalog_kind(t.name, props[n]))}
    if SQL_TABLES not in getattr(cls, "_ents", {}):
        for n in kinds:
            rec.add("database", n, "fail", "a SQL tool of a service that holds no database")
        return
    env, svc, specs = Environment([cls], seed=seed), cls.name, cls.tool_specs()
    problems: dict[str, list[str]] = {n: [] for n in kinds}

    def run(name: str, stmt: str) -> Observation | None:
        t = tools[name]
        param = statement_param(t.name, t.description or "", props[name])
        args = schema_arguments(specs[name], env, svc, random.Random(47), given={param: stmt} if param else None)
        return _call(env, svc, name, args) if args is not None else None

    def rows(obs: Observation | None) -> list[dict[str, Any]]:
        return list((obs.data or {}).get("rows") or []) if obs is not None and obs.ok and isinstance(obs.data, dict) else []

    readers = [n for n, k in kinds.items() if k in ("read", "execute")]
    writers = [n for n, k in kinds.items() if k in ("write", "execute")]
    unset = set()  # tools whose other arguments no value fits (`oneOf` of connection settings): not checked
    for n in readers:
        obs = run(n, PROBES["answer"])
        if obs is None:
            unset.add(n)
        elif rows(obs) != [{"answer": 42}]:
            problems[n].append("SELECT 6 * 7 did not answer 42")
    written = False
    if writers:
        made = run(writers[0], PROBES["create"])
        put = run(writers[0], PROBES["insert"]) if made is not None and made.ok else None
        written = put is not None and put.ok
        if not written:
            problems[writers[0]].append(f"could not create a table and insert a row ({(put or made).error if (put or made) else 'no arguments'})")
    if written:
        for n, k in kinds.items():
            if n in unset:
                continue
            if k in ("read", "execute") and rows(run(n, PROBES["select"])) != [{"label": "zq-1"}]:
                problems[n].append("did not select the row a write inserted")
            elif k == "tables":
                obs = _call(env, svc, n, schema_arguments(specs[n], env, svc, random.Random(47)) or {})
                if "zq_check" not in _scalars(obs.data if obs.ok else None):
                    problems[n].append("does not list the table a write created")
            elif k == "describe":
                param = next((p for p in props[n] if snake(p) in ("table", "table_name", "tablename", "name", "table_id")), "")
                obs = _call(env, svc, n, {param: "zq_check"})
                if not obs.ok or not {"id", "label"} <= set(_scalars(obs.data)):
                    problems[n].append("does not describe the columns of the table a write created")
        for n, k in kinds.items():
            if k == "read" and n not in unset:
                obs = run(n, PROBES["delete"])
                if obs is None or obs.ok or rows(run(readers[0], PROBES["count"])) != [{"n": 1}]:
                    problems[n].append("a tool that only reads ran a DELETE")
    for n, found in problems.items():
        if n in unset and not found:
            rec.add("database", n, "skip", "no arguments fit its schema")
        else:
            rec.add("database", n, "fail" if found else "pass", "; ".join(found))


_NESTED = ("/zq-check", "/zq-check/inner", "/zq-check/inner/leaf.md")


def _path_param(tool: ToolIn) -> str | None:
    props = tool.input_schema.get("properties") or {}
    return next((p for p in props if snake(p) in REWRITE_KEYS - {"url", "uri", "key"}), None)


def _check_directory(cls: type[Service], seed: int, tools: dict[str, ToolIn], intents: dict[str, ToolIntent], rec: _Rec) -> None:
    """A tool named for listing one directory (`list_directory(path)`) answers what lies in it: after
    a write at `/zq-check/inner/leaf.md` (a file written or a folder made, by the spec's own create
    tool), `/zq-check` lists `inner` and `/zq-check/inner` lists `leaf.md`. A listing that answers the
    records whose path merely contains the one asked for shows no `inner`."""
    specs = cls.tool_specs()
    listers = [n for n, t in tools.items() if lists_a_directory(t.name) and _path_param(t) and specs[n].read_only]
    writers = [n for n, t in tools.items() if intents[n].create and _path_param(t) and not specs[n].read_only and specs[n].kind != "world_model"]
    if not listers or not writers:
        return
    for lister in listers[:2]:
        env = Environment([cls], seed=seed)
        wtool = tools[writers[0]]
        args = schema_arguments(specs[writers[0]], env, cls.name, random.Random(61), given={_path_param(wtool): _NESTED[2]})  # type: ignore[dict-item]
        if args is None or not _call(env, cls.name, writers[0], args).ok:
            rec.add("directory", lister, "skip", f"{writers[0]} wrote nothing at {_NESTED[2]}")
            continue
        param = _path_param(tools[lister])
        top = _call(env, cls.name, lister, {param: _NESTED[0]})
        inner = _call(env, cls.name, lister, {param: _NESTED[1]})
        said = lambda obs: {str(v).rstrip("/") for v in _scalars(obs.data)} if obs.ok else set()  # noqa: E731
        shows_dir = bool(said(top) & {_NESTED[1], "inner"}) and _NESTED[2] not in said(top)
        shows_leaf = bool(said(inner) & {_NESTED[2], "leaf.md"})
        ok = bool(shows_dir and shows_leaf)
        rec.add("directory", lister, "pass" if ok else "fail",
                "" if ok else f"after a write at {_NESTED[2]}, {_NESTED[0]} lists {top.content[:80]!r} and {_NESTED[1]} lists {inner.content[:80]!r}")


def _check_session(cls: type[Service], seed: int, tools: dict[str, ToolIn], rec: _Rec) -> None:
    """A browser service's page tools act on one session (see the module's docstring). What each
    tool should do comes from its spec's name and parameters, not from what it was compiled to."""
    from compoworld.synthesis.browser import BROWSER_PAGES, browser_kind, is_browser, url_param

    named = {n: (t.name, list(t.input_schema.get("properties") or {})) for n, t in tools.items()}
    if not is_browser(list(named.values())):
        return
    page_tools = {n: k for n, (orig, ps) in named.items() if (k := browser_kind(orig, ps)) is not None}  # name -> kind
    nav = next((n for n, k in page_tools.items() if k == "navigate"), None)
    if nav is None or BROWSER_PAGES not in getattr(cls, "_ents", {}):
        for n in page_tools:
            rec.add("session", n, "fail", "a page tool of a browser service that holds no session")
        return
    env, svc, specs = Environment([cls], seed=seed), cls.name, cls.tool_specs()
    problems: dict[str, list[str]] = {n: [] for n in page_tools}

    def call(name: str, **given: Any) -> Observation | None:
        args = schema_arguments(specs[name], env, svc, random.Random(43), given=given)
        return _call(env, svc, name, args) if args is not None else None

    def current() -> dict[str, Any] | None:
        return next((r for r in env.services[svc].db[BROWSER_PAGES] if r.get("current")), None)

    for n, k in page_tools.items():  # nothing is open yet
        obs = call(n) if k != "navigate" else None
        if obs is not None and obs.ok and k != "close":
            problems[n].append("answered before any page was opened")
    first, second = "https://example.com/pricing-plans", "https://example.org/docs/release-notes"
    for url in (first, second):
        obs = call(nav, **{url_param(named[nav][1]) or "url": url})
        if obs is None or not obs.ok or (obs.data or {}).get("url") != url:
            problems[nav].append(f"navigating to {url} did not open it ({obs.error if obs else 'no arguments'})")
            break
    else:
        moves = {k: n for n, k in page_tools.items() if k in ("back", "forward")}
        if "back" in moves:
            obs = call(moves["back"])
            if obs is None or not obs.ok or (obs.data or {}).get("url") != first:
                problems[moves["back"]].append("going back did not return to the page before")
            elif "forward" in moves:
                obs = call(moves["forward"])
                if obs is None or not obs.ok or (obs.data or {}).get("url") != second:
                    problems[moves["forward"]].append("going forward did not return to the later page")
        shown = (current() or {}).get("url") or second
        for n, k in page_tools.items():
            if k in ("read", "screenshot"):
                obs = call(n)
                if obs is None or not obs.ok or (obs.data or {}).get("url") != shown:
                    problems[n].append(f"did not answer the open page {shown}")
            elif k == "interact":
                before = len((current() or {}).get("events") or [])
                obs = call(n)
                if obs is not None and obs.ok and len((current() or {}).get("events") or []) != before + 1:
                    problems[n].append("the page does not remember the action")
        closes = [n for n, k in page_tools.items() if k == "close"]
        reads = [n for n, k in page_tools.items() if k in ("read", "screenshot")]
        if closes and reads:
            obs = call(closes[0])
            after = call(reads[0])
            if obs is None or not obs.ok or (after is not None and after.ok):
                problems[closes[0]].append("closing did not end the session")
    for n, found in problems.items():
        rec.add("session", n, "fail" if found else "pass", "; ".join(found))


def _declared_fields(server: ServerSpec) -> set[str]:
    """Record fields the spec declares: parameters of its writes and properties of its output schemas."""
    out: set[str] = set()
    for t in server.tools:
        if ToolIntent(t).write:
            out |= {snake(p) for p in t.input_schema.get("properties") or {}}
        schema = t.output_schema or {}
        for v in [schema] + [x.get("items") or {} for x in (schema.get("properties") or {}).values() if isinstance(x, dict)]:
            if isinstance(v, dict):
                out |= {snake(p) for p in v.get("properties") or {}}
    return out


def failing_tools(checks: list[CheckResult]) -> set[str]:
    """Tools that do something other than their spec says: recompiled as world-model tools."""
    return {c.tool for c in checks if c.status == "fail" and c.tool and c.check not in GENERIC_CHECKS}


def pretending_searches(plan: ServicePlan, checks: list[CheckResult]) -> set[str]:
    """Reads answering generic search hits (a title, a url, a snippet, a score) with placeholder text,
    over records of the outside world that no tool of the service writes: recompiled as world-model
    tools. RuneScape's `search_npctypes` had answered "Npctype 1, as recorded." at a company's web
    address, NASA's `nasa_neo` "Result 3, as recorded.": nothing true backs such hits, and nothing the
    service does changes them, so a simulation replaces nothing but the pretence."""
    placeholder = {c.tool for c in checks if c.check == "fidelity_domain" and c.status == "fail" and c.detail.startswith("placeholder text")}
    written = {t.collection for t in plan.tools if t.op in WRITE_OPS}
    hits = {e.collection for e in plan.entities if e.world and e.topic == "result" and e.collection not in written}
    return {t.name for t in plan.tools if t.name in placeholder and t.collection in hits}


def generic_tools(checks: list[CheckResult]) -> set[str]:
    """Tools that answer with a generic record: consistent, not wrong, but not faithful either."""
    return {c.tool for c in checks if c.status == "fail" and c.tool and c.check in GENERIC_CHECKS}


def level_of(kind: str, op: str | None, generic: bool = False) -> Level:
    """The level of a tool that was not recompiled (one that failed a check other than `domain` is a
    world-model tool now): simulated when the world model serves it, structural when it only logs
    itself or answers with a generic record (consistent but generic), faithful otherwise."""
    if kind == "world_model":
        return "simulated"
    return "structural" if op == "action" or generic else "faithful"
