"""Pure computations a compiled tool can be: recognized from the tool's words and parameter shapes,
implemented as local code (arithmetic, dates and time zones, encodings, hashes, text statistics,
unit conversion, validation...). Each has a fixed output schema."""

from __future__ import annotations

import ast
import base64
import hashlib
import html
import json
import math
import operator
import re
import statistics
import urllib.parse
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from typing import Any, Callable
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from compoworld.canonical import TIMESTAMP_FORMAT
from compoworld.services.tool import ToolError
from compoworld.synthesis.clinical import FORMULAS as CLINICAL, clinical_formula
from compoworld.synthesis.convert import convert, format_of
from compoworld.synthesis.world import USD_VALUE, rng_for

NUM = {"type": "number"}
STR = {"type": "string"}
INT = {"type": "integer"}
BOOL = {"type": "boolean"}


def _obj(**props: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": list(props)}


@dataclass(frozen=True)
class Call:
    """What a computation sees: the validated arguments, parameter order and types, and the service."""

    args: dict[str, Any]
    order: list[str]
    types: dict[str, str | None]
    svc: Any
    tool: str

    def numbers(self) -> list[float]:
        out: list[float] = []
        for p in self.order:
            v = self.args.get(p)
            if isinstance(v, bool):
                continue
            if isinstance(v, (int, float)):
                out.append(v)
            elif isinstance(v, list) and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in v):
                out.extend(v)
            elif isinstance(v, str) and self.types.get(p) in ("number", "integer"):
                try:
                    out.append(float(v))
                except ValueError:
                    pass
        return out

    def text(self, prefer: tuple[str, ...] = ()) -> str:
        for p in self.order:
            if p.lower() in prefer and isinstance(self.args.get(p), str):
                return self.args[p]
        for p in self.order:
            if isinstance(self.args.get(p), str):
                return self.args[p]
        return ""

    def named(self, *names: str) -> Any:
        # `sourceTimezone`, `source_timezone` and `fromTZ`/`from_tz` are the same parameter
        low = {re.sub(r"[^a-z0-9]", "", p.lower()): p for p in self.order}
        for n in names:
            key = low.get(n.replace("_", ""))
            if key is not None and key in self.args:
                return self.args[key]
        return None


@dataclass(frozen=True)
class Computation:
    name: str
    output: dict[str, Any]
    run: Callable[[Call], dict[str, Any]]


# -- implementations --------------------------------------------------------------------------

_BIN = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
        ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow}
_UN = {ast.UAdd: operator.pos, ast.USub: operator.neg}
_FUNCS: dict[str, Callable[..., float]] = {
    "sqrt": math.sqrt, "abs": abs, "round": round, "sin": math.sin, "cos": math.cos, "tan": math.tan, "log": math.log,
    "log10": math.log10, "log2": math.log2, "exp": math.exp, "floor": math.floor, "ceil": math.ceil, "min": min, "max": max,
    "factorial": math.factorial, "pow": pow,
}
_CONSTS = {"pi": math.pi, "e": math.e, "tau": math.tau}


def safe_eval(expr: str) -> float:
    """Evaluate an arithmetic expression without executing code."""
    expr = expr.replace("^", "**").replace("×", "*").replace("÷", "/").strip()
    if len(expr) > 500:
        raise ToolError("expression is too long (max 500 characters)")
    try:
        tree = ast.parse(expr, mode="eval")
    except SyntaxError:
        raise ToolError(f"cannot parse expression {expr!r}") from None

    def ev(node: ast.AST) -> float:
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
            return node.value
        if isinstance(node, ast.BinOp) and type(node.op) in _BIN:
            left, right = ev(node.left), ev(node.right)
            if isinstance(node.op, ast.Pow) and abs(right) > 1000:
                raise ToolError("exponent too large")
            out = _BIN[type(node.op)](left, right)
            if isinstance(out, complex):
                raise ToolError("the result is not a real number")
            return out
        if isinstance(node, ast.UnaryOp) and type(node.op) in _UN:
            return _UN[type(node.op)](ev(node.operand))
        if isinstance(node, ast.Name) and node.id.lower() in _CONSTS:  # `PI` and `E` as expr-eval spells them
            return _CONSTS[node.id.lower()]
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _FUNCS and not node.keywords:
            args = [ev(a) for a in node.args]
            if node.func.id == "factorial" and (args[0] > 500 or args[0] != int(args[0])):
                raise ToolError("factorial needs a whole number up to 500")
            return _FUNCS[node.func.id](*[int(a) if node.func.id == "factorial" else a for a in args])
        raise ToolError(f"unsupported element in expression: {ast.unparse(node)[:60]!r}; use numbers, + - * / ** %, "
                        "parentheses, pi, e and functions such as sqrt or log")

    try:
        value = ev(tree)
    except ZeroDivisionError:
        raise ToolError("division by zero") from None
    except (ValueError, OverflowError, TypeError) as exc:
        raise ToolError(f"cannot evaluate expression: {exc}") from None
    if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
        raise ToolError("the result is not a finite number")
    return value


def _num(v: float) -> float:
    return int(v) if isinstance(v, float) and v.is_integer() and abs(v) < 1e15 else round(v, 10) if isinstance(v, float) else v


def _expression(c: Call) -> dict[str, Any]:
    expr = c.text(("expression", "expr", "formula", "equation", "input", "query", "calculation", "math"))
    if not expr:
        nums = c.numbers()
        if not nums:
            raise ToolError("give an expression to evaluate")
        expr = " + ".join(str(n) for n in nums)
    return {"expression": expr, "result": _num(safe_eval(expr))}


def _arith(op: str) -> Callable[[Call], dict[str, Any]]:
    def run(c: Call) -> dict[str, Any]:
        xs = c.numbers()
        if not xs:
            raise ToolError("give at least one number")
        try:
            if op == "add":
                r = math.fsum(xs)
            elif op == "subtract":
                r = xs[0] - math.fsum(xs[1:])
            elif op == "multiply":
                r = math.prod(xs)
            elif op == "divide":
                if len(xs) < 2:
                    raise ToolError("division needs two numbers")
                if any(x == 0 for x in xs[1:]):
                    raise ToolError("division by zero")
                r = xs[0]
                for x in xs[1:]:
                    r /= x
            elif op == "power":
                if len(xs) < 2 or abs(xs[1]) > 1000:
                    raise ToolError("power needs a base and an exponent (|exponent| <= 1000)")
                r = xs[0] ** xs[1]
            elif op == "sqrt":
                if xs[0] < 0:
                    raise ToolError("square root of a negative number")
                r = math.sqrt(xs[0])
            elif op == "modulo":
                if len(xs) < 2 or xs[1] == 0:
                    raise ToolError("modulo needs a non-zero divisor")
                r = xs[0] % xs[1]
            elif op == "mean":
                r = statistics.fmean(xs)
            elif op == "median":
                r = statistics.median(xs)
            elif op == "max":
                r = max(xs)
            elif op == "min":
                r = min(xs)
            elif op == "factorial":
                if xs[0] < 0 or xs[0] > 500 or xs[0] != int(xs[0]):
                    raise ToolError("factorial needs a whole number from 0 to 500")
                r = math.factorial(int(xs[0]))
            elif op == "abs":
                r = abs(xs[0])
            elif op == "round":
                r = round(xs[0], int(xs[1]) if len(xs) > 1 else 0)
            elif op == "ceil":
                r = math.ceil(xs[0])
            elif op == "floor":
                r = math.floor(xs[0])
            elif op == "percent":
                r = xs[0] * xs[1] / 100 if len(xs) > 1 else xs[0] / 100
            else:
                r = math.fsum(xs)
        except OverflowError:
            raise ToolError("the result is too large") from None
        if isinstance(r, complex):
            raise ToolError("the result is not a real number")
        if isinstance(r, float) and not math.isfinite(r):
            raise ToolError("the result is not a finite number")
        return {"operation": op, "operands": xs, "result": _num(r) if isinstance(r, float) else (float(r) if abs(r) > 2**53 else r)}

    return run


_TZ = {"utc": 0, "gmt": 0, "z": 0, "est": -5, "edt": -4, "cst": -6, "cdt": -5, "mst": -7, "pst": -8, "pdt": -7, "cet": 1, "cest": 2,
       "bst": 1, "ist": 5.5, "jst": 9, "kst": 9, "sgt": 8, "aest": 10, "america/new_york": -5, "america/chicago": -6,
       "america/denver": -7, "america/los_angeles": -8, "america/toronto": -5, "america/sao_paulo": -3, "europe/london": 0,
       "europe/paris": 1, "europe/berlin": 1, "europe/madrid": 1, "europe/rome": 1, "europe/amsterdam": 1, "europe/moscow": 3,
       "asia/dubai": 4, "asia/kolkata": 5.5, "asia/shanghai": 8, "asia/singapore": 8, "asia/hong_kong": 8, "asia/tokyo": 9,
       "asia/seoul": 9, "australia/sydney": 10, "pacific/auckland": 12}


# Every IANA zone the system knows, by lower-case name (zone names are case-sensitive files).
_ZONES = {z.lower(): z for z in available_timezones()} | {"utc": "UTC", "gmt": "GMT"}


def _tz_offset(name: Any, at: datetime | None = None) -> tuple[str, float]:
    """A zone's name and its UTC offset in hours at the naive UTC time `at` (daylight saving
    included): IANA names through `zoneinfo`, abbreviations and fixed offsets from the table."""
    if not isinstance(name, str) or not name.strip():
        return "UTC", 0
    zone = _zone(name.strip())
    if zone is not None:
        when = (at or datetime(2024, 1, 1)).replace(tzinfo=timezone.utc)
        off = when.astimezone(zone).utcoffset()
        return name, (off.total_seconds() / 3600) if off is not None else 0
    key = name.strip().lower().replace(" ", "_")
    if key in _TZ:
        return name, _TZ[key]
    m = re.match(r"^(?:utc|gmt)?\s*([+-])(\d{1,2})(?::?(\d{2}))?$", key)
    if m:
        sign = -1 if m.group(1) == "-" else 1
        return name, sign * (int(m.group(2)) + int(m.group(3) or 0) / 60)
    raise ToolError(f"unknown time zone {name!r}; use an IANA name like 'Europe/Berlin' or an offset like '+02:00'")


def _zone(name: str) -> ZoneInfo | None:
    """The IANA zone called `name` (any capitalisation), or None."""
    if "/" not in name and name.upper() not in ("UTC", "GMT"):
        return None
    canonical = _ZONES.get(name.lower())
    if canonical is None:
        return None
    try:
        return ZoneInfo(canonical)
    except (ZoneInfoNotFoundError, ValueError):
        return None


def _clock(c: Call) -> datetime:
    return datetime.strptime(c.svc.now(), TIMESTAMP_FORMAT)  # naive, like the times computations parse


def _now(c: Call) -> dict[str, Any]:
    tzname, off = _tz_offset(c.named("timezone", "tz", "time_zone", "zone", "timezone_name"), _clock(c))
    t = _clock(c) + timedelta(hours=off)
    return {"datetime": t.strftime("%Y-%m-%dT%H:%M:%S"), "date": t.date().isoformat(), "time": t.strftime("%H:%M:%S"),
            "timezone": tzname, "utc_offset_hours": off, "weekday": t.strftime("%A"),
            "unix": int((_clock(c) - datetime(1970, 1, 1)).total_seconds())}


def _parse_dt(v: Any, c: Call) -> datetime:
    if v is None or v == "":
        return _clock(c)
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return datetime(1970, 1, 1) + timedelta(seconds=float(v) / (1000 if v > 1e11 else 1))
    s = str(v).strip().replace("Z", "")
    for fmt in ("%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%d", "%H:%M:%S", "%H:%M", "%Y/%m/%d"):
        try:
            d = datetime.strptime(s[: len(datetime(2000, 1, 1).strftime(fmt))] if "%" in fmt else s, fmt)
            if fmt.startswith("%H"):
                base = _clock(c)
                d = base.replace(hour=d.hour, minute=d.minute, second=d.second)
            return d
        except ValueError:
            continue
    try:
        return datetime.fromisoformat(s.split("+")[0])
    except ValueError:
        raise ToolError(f"cannot read {v!r} as a date or time (use YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS)") from None


def _epoch(direction: str) -> Callable[[Call], dict[str, Any]]:
    """Unix timestamps and UTC dates, either way; a list of timestamps converts each (milliseconds are
    recognized by their size)."""
    def one(v: Any, c: Call) -> dict[str, Any]:
        if direction == "to_date" and (isinstance(v, bool) or not isinstance(v, (int, float))):
            raise ToolError(f"{v!r} is not a Unix timestamp")
        if v is None or v == "":
            raise ToolError("give a date or time to convert")
        d = _parse_dt(v, c)  # a time of day alone is on the service's today
        ts = int((d - datetime(1970, 1, 1)).total_seconds())
        return {"timestamp": ts, "datetime": d.strftime(TIMESTAMP_FORMAT), "date": d.date().isoformat()}

    def run(c: Call) -> dict[str, Any]:
        values = [c.args[p] for p in c.order if p in c.args and c.args[p] is not None]
        if not values:
            raise ToolError("give a timestamp or a date to convert")
        first = values[0]
        if isinstance(first, list):
            return {"items": [one(v, c) for v in first[:1000]]}
        return one(first, c)

    return run


def _convert_tz(c: Call) -> dict[str, Any]:
    src_arg = c.named("source_timezone", "from_timezone", "from_tz", "source_tz", "from", "source", "timezone")
    dst_arg = c.named("target_timezone", "to_timezone", "to_tz", "target_tz", "to", "target", "destination_timezone")
    t = _parse_dt(c.named("time", "datetime", "date_time", "timestamp", "date", "source_time"), c)
    # the given time is local to the source zone: find its UTC instant (the offset depends on the date)
    src_name, src = _tz_offset(src_arg, t)
    src_name, src = _tz_offset(src_arg, t - timedelta(hours=src))
    utc = t - timedelta(hours=src)
    dst_name, dst = _tz_offset(dst_arg, utc)
    out = utc + timedelta(hours=dst)
    return {"source_time": t.strftime("%Y-%m-%dT%H:%M:%S"), "source_timezone": src_name, "target_timezone": dst_name,
            "converted_time": out.strftime("%Y-%m-%dT%H:%M:%S"), "offset_hours": dst - src}


def _date_info(c: Call) -> dict[str, Any]:
    d = _parse_dt(c.named("date", "datetime", "day", "time", "timestamp"), c).date()
    nxt = date(d.year + (d.month == 12), d.month % 12 + 1, 1)
    return {"date": d.isoformat(), "weekday": d.strftime("%A"), "iso_week": d.isocalendar()[1], "day_of_year": d.timetuple().tm_yday,
            "days_in_month": (nxt - date(d.year, d.month, 1)).days, "is_leap_year": d.year % 4 == 0 and (d.year % 100 != 0 or d.year % 400 == 0)}


def _date_diff(c: Call) -> dict[str, Any]:
    vals = [c.args[p] for p in c.order if isinstance(c.args.get(p), str)]
    if len(vals) < 2:
        raise ToolError("give two dates")
    a, b = _parse_dt(vals[0], c), _parse_dt(vals[1], c)
    delta = b - a
    return {"start": a.strftime("%Y-%m-%dT%H:%M:%S"), "end": b.strftime("%Y-%m-%dT%H:%M:%S"), "days": delta.days,
            "seconds": int(delta.total_seconds())}


def _rng(c: Call) -> Any:
    # keyed by `json.dumps`, not canonical JSON: the draws of every compiled random tool depend on this text
    return rng_for(c.svc.ctx.seed, c.svc.name, c.tool, json.dumps(c.args, sort_keys=True, default=str), c.svc.now())


def _uuid(c: Call) -> dict[str, Any]:
    r = _rng(c)
    u = "{:08x}-{:04x}-4{:03x}-{:x}{:03x}-{:012x}".format(r.getrandbits(32), r.getrandbits(16), r.getrandbits(12), 8 + r.getrandbits(2), r.getrandbits(12), r.getrandbits(48))
    return {"uuid": u}


def _distribution_draw(c: Call) -> dict[str, Any] | None:
    """A draw from the distribution the tool is named for (`vonmises_random(mu)`, `gauss(mu, sigma)`),
    with its parameters as the `random` module names them; None for a plain range."""
    name = set(re.split(r"[^a-z]+", c.tool.lower()))
    r = _rng(c)

    def num(*names: str, default: float) -> float:
        v = c.named(*names)
        return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else default

    if name & {"vonmises"}:  # an angle in radians, in [0, 2pi)
        mu, kappa = num("mu", "mean", default=0.0), num("kappa", "concentration", default=1.0)
        return {"mu": mu, "kappa": kappa, "result": round(r.vonmisesvariate(mu, kappa), 6)}
    if name & {"gauss", "gaussian", "normal", "lognormal"}:
        mu, sigma = num("mu", "mean", default=0.0), num("sigma", "std", "stddev", "standard_deviation", default=1.0)
        draw = r.lognormvariate(mu, sigma) if "lognormal" in name else r.gauss(mu, sigma)
        return {"mu": mu, "sigma": sigma, "result": round(draw, 6)}
    if name & {"exponential"}:
        rate = num("lambd", "lambda", "rate", default=1.0)
        return {"rate": rate, "result": round(r.expovariate(rate), 6)} if rate > 0 else None
    return None


def _random_number(c: Call) -> dict[str, Any]:
    drawn = _distribution_draw(c)
    if drawn is not None:
        return drawn
    xs = c.numbers()
    lo, hi = (min(xs[:2]), max(xs[:2])) if len(xs) >= 2 else (0, xs[0] if xs else 100)
    r = _rng(c)
    integer = all(float(x).is_integer() for x in xs[:2]) if xs else True
    v = r.randint(int(math.ceil(lo)), int(math.floor(hi))) if integer and math.ceil(lo) <= math.floor(hi) else round(r.uniform(lo, hi), 4)
    return {"min": lo, "max": hi, "result": v}


def _password(c: Call) -> dict[str, Any]:
    xs = [x for x in c.numbers() if 4 <= x <= 256]
    n = int(xs[0]) if xs else 16
    r = _rng(c)
    alphabet = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789!@#$%&*"
    return {"password": "".join(r.choice(alphabet) for _ in range(n)), "length": n}


def _dice(c: Call) -> dict[str, Any]:
    spec = c.text(("notation", "dice", "roll", "expression", "formula"))
    m = re.match(r"^\s*(\d*)d(\d+)\s*([+-]\s*\d+)?\s*$", spec or "", re.I)
    count, sides, mod = (int(m.group(1) or 1), int(m.group(2)), int((m.group(3) or "0").replace(" ", ""))) if m else (1, 6, 0)
    nums = [int(x) for x in c.numbers() if x == int(x)]
    if not m and nums:
        count, sides = (nums[0], nums[1]) if len(nums) > 1 else (1, nums[0])
    if not (1 <= count <= 100 and 2 <= sides <= 1000):
        raise ToolError("dice: 1-100 dice with 2-1000 sides")
    r = _rng(c)
    rolls = [r.randint(1, sides) for _ in range(count)]
    return {"notation": f"{count}d{sides}{mod:+d}" if mod else f"{count}d{sides}", "rolls": rolls, "total": sum(rolls) + mod}


def _coin(c: Call) -> dict[str, Any]:
    return {"result": _rng(c).choice(["heads", "tails"])}


HELP_TOPIC_PARAMS = frozenset({"topic", "command", "tool", "section", "subject"})


def _help(c: Call) -> dict[str, Any]:
    """An integration's help: what its tools do, from its own catalog (the tools a topic names, when one
    is given and names some), not a text made up for it."""
    from compoworld.services.gateway import one_line

    cls = type(c.svc)
    plan = getattr(cls, "plan", None)
    title = plan.title if plan is not None else cls.name
    topic = next((str(v) for k, v in c.args.items() if k.lower() in HELP_TOPIC_PARAMS and isinstance(v, str) and v.strip()), "")

    def stems(text: str) -> set[str]:  # "effects" asks about an effect
        return {w.rstrip("s") for w in re.split(r"[^a-z0-9]+", text.lower()) if len(w) > 2}

    # the topic asked for, else what the tool's own name adds to the service's (`get_effects_help`: effects)
    named = stems(f"{cls.name} {title}")  # "After Effects" says nothing of one tool
    wanted = (stems(topic) or stems(c.tool) - stems("get help mcp show")) - named
    specs = [(n, s) for n, s in cls.tool_specs().items() if "help" not in n.lower().split("_") and n != c.tool]
    about = [(n, s) for n, s in specs if wanted & (stems(f"{n} {s.description}") - named)]
    shown = about or specs
    lines = [f"- {n}: {one_line(s.description)}" for n, s in shown]
    head = f"{title}: {one_line(cls.description, 200)}"
    if topic and not about:
        head += f" No tool mentions {topic!r}; every tool is listed."
    return {"title": f"{title} help" + (f": {topic}" if topic else ""), "content": head + "\n\nTools:\n" + "\n".join(lines),
            "tools": [n for n, _ in shown]}


def _hash(c: Call) -> dict[str, Any]:
    text = c.text(("text", "input", "data", "content", "string", "value", "message"))
    algo = str(c.named("algorithm", "algo", "hash_type", "type", "method") or "").lower().replace("-", "")
    if algo not in hashlib.algorithms_guaranteed:
        toks = set(re.findall(r"[a-z0-9]+", c.tool.lower()))
        algo = next((a for a in ("md5", "sha1", "sha256", "sha512", "sha384", "sha224") if a in toks), "sha256")
    return {"algorithm": algo, "hash": hashlib.new(algo, text.encode()).hexdigest()}


def _codec(kind: str, direction: str) -> Callable[[Call], dict[str, Any]]:
    def run(c: Call) -> dict[str, Any]:
        text = c.text(("text", "input", "data", "content", "string", "value", "encoded", "url"))
        try:
            if kind == "base64":
                out = base64.b64encode(text.encode()).decode() if direction == "encode" else base64.b64decode(text.encode(), validate=True).decode("utf-8")
            elif kind == "url":
                out = urllib.parse.quote(text, safe="") if direction == "encode" else urllib.parse.unquote(text)
            elif kind == "hex":
                out = text.encode().hex() if direction == "encode" else bytes.fromhex(text).decode("utf-8")
            elif kind == "html":
                out = html.escape(text) if direction == "encode" else html.unescape(text)
            else:
                out = text
        except (ValueError, UnicodeDecodeError) as exc:
            raise ToolError(f"cannot {direction} as {kind}: {exc}") from None
        return {"input": text, "output": out, "encoding": kind, "direction": direction}

    return run


def _math(fn: str) -> Callable[[Call], dict[str, Any]]:
    """One-argument functions (`sin(x)` in radians, `log(x, base)`, degree/radian conversion), whole
    number facts (`gcd`, `lcm`, `is_prime`) and the roots of a quadratic."""
    def run(c: Call) -> dict[str, Any]:
        xs = c.numbers()
        if not xs:
            raise ToolError(f"{fn} needs a number")
        x = xs[0]
        try:
            if fn in ("sin", "cos", "tan"):
                r: Any = getattr(math, fn)(x)
            elif fn == "log":
                base = c.named("base", "log_base")
                base = base if isinstance(base, (int, float)) and not isinstance(base, bool) else math.e
                rest = [c.args[p] for p in c.order if p.lower() not in ("base", "log_base") and isinstance(c.args.get(p), (int, float))]
                x = rest[0] if rest else x
                if x <= 0 or base <= 0 or base == 1:
                    raise ToolError("a logarithm needs a positive number and a positive base other than 1")
                r = math.log(x, base)
            elif fn == "radians":
                r = math.radians(x)
            elif fn == "degrees":
                r = math.degrees(x)
            elif fn in ("gcd", "lcm"):
                if len(xs) < 2 or any(v != int(v) for v in xs):
                    raise ToolError(f"{fn} needs two whole numbers")
                r = getattr(math, fn)(*(int(v) for v in xs))
            elif fn == "perm":  # the ways to choose k of n items in order (k defaults to n)
                n, k = c.named("n", "total", "items"), c.named("k", "r", "choose")
                n = n if isinstance(n, (int, float)) and not isinstance(n, bool) else x
                k = k if isinstance(k, (int, float)) and not isinstance(k, bool) else n
                if n != int(n) or k != int(k) or n < 0 or k < 0:
                    raise ToolError("permutations need whole numbers n >= 0 and k >= 0")
                r = math.perm(int(n), int(k))
            elif fn == "is_prime":
                if x != int(x):
                    raise ToolError("primality is for whole numbers")
                n = int(x)
                r = n >= 2 and all(n % d for d in range(2, math.isqrt(n) + 1)) if n < 10**12 else None
                if r is None:
                    raise ToolError("the number is too large to test here (at most 10^12)")
            else:  # quadratic: a x^2 + b x + c = 0
                a, b, k = (xs + [0.0, 0.0])[:3]
                if a == 0:
                    raise ToolError("not a quadratic equation: a is 0")
                disc = b * b - 4 * a * k
                if disc >= 0:
                    roots: list[Any] = sorted({_num((-b - math.sqrt(disc)) / (2 * a)), _num((-b + math.sqrt(disc)) / (2 * a))})
                else:
                    re_, im = _num(-b / (2 * a)), _num(math.sqrt(-disc) / (2 * abs(a)))
                    roots = [f"{re_}-{im}i", f"{re_}+{im}i"]
                return {"function": fn, "input": xs[:3], "discriminant": _num(disc), "roots": roots}
        except (ValueError, OverflowError) as exc:
            raise ToolError(f"cannot compute {fn}({x}): {exc}") from None
        if isinstance(r, float) and not math.isfinite(r):
            raise ToolError("the result is not a finite number")
        return {"function": fn, "input": xs[:2] if fn in ("gcd", "lcm") else [x], "result": _num(r) if isinstance(r, float) else r}

    return run


def _text_case(kind: str) -> Callable[[Call], dict[str, Any]]:
    def run(c: Call) -> dict[str, Any]:
        t = c.text(("text", "input", "string", "content", "value"))
        f = {"upper": str.upper, "lower": str.lower, "title": str.title, "capitalize": str.capitalize,
             "reverse": lambda s: s[::-1], "trim": str.strip,
             "slug": lambda s: re.sub(r"[^a-z0-9]+", "-", s.lower()).strip("-")}[kind]
        return {"input": t, "result": f(t)}

    return run


CONTENT_PARAMS = ("contents", "content", "text", "input", "source", "markdown", "html", "document", "body")
FROM_FORMAT = ("input_format", "from_format", "source_format", "from", "format_from")
TO_FORMAT = ("output_format", "to_format", "target_format", "to", "format_to", "format")


def _document_convert(c: Call) -> dict[str, Any]:
    """Pandoc's `convert_contents(contents, input_format, output_format)`: the contents in the other format."""
    source = c.named(*CONTENT_PARAMS)
    if not isinstance(source, str) or not source.strip():
        raise ToolError(f"give the contents to convert ({' or '.join(p for p in c.order if p.lower() in CONTENT_PARAMS) or 'contents'})")
    src = format_of(c.named(*FROM_FORMAT), "markdown")
    dst = format_of(c.named(*TO_FORMAT), "markdown")  # Pandoc's default
    return {"input_format": src, "output_format": dst, "content": convert(source, src, dst)}


def _count(c: Call) -> dict[str, Any]:
    t = c.text(("text", "input", "content", "string", "document"))
    return {"characters": len(t), "characters_no_spaces": len(re.sub(r"\s", "", t)), "words": len(t.split()),
            "lines": t.count("\n") + 1 if t else 0, "sentences": len([s for s in re.split(r"[.!?]+", t) if s.strip()])}


def _json_tool(c: Call) -> dict[str, Any]:
    raw = c.named("json", "data", "input", "text", "content", "json_string", "string")
    if not isinstance(raw, str):
        raw = json.dumps(raw) if raw is not None else c.text()
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as exc:
        return {"valid": False, "error": f"line {exc.lineno} column {exc.colno}: {exc.msg}", "formatted": ""}
    return {"valid": True, "error": "", "formatted": json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False)}


_VALIDATORS: dict[str, Callable[[str], bool]] = {
    "email": lambda s: bool(re.fullmatch(r"[^@\s]+@[^@\s]+\.[^@\s]+", s)),
    "url": lambda s: bool(re.fullmatch(r"https?://[^\s/$.?#][^\s]*", s)),
    "uuid": lambda s: bool(re.fullmatch(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}", s)),
    "ip": lambda s: bool(re.fullmatch(r"(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}", s)),
    "phone": lambda s: bool(re.fullmatch(r"\+?[\d\s().-]{7,20}", s)),
    "card": lambda s: _luhn(re.sub(r"[\s-]", "", s)),
}


def _luhn(digits: str) -> bool:
    if not digits.isdigit() or not 12 <= len(digits) <= 19:
        return False
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def _validate(kind: str) -> Callable[[Call], dict[str, Any]]:
    def run(c: Call) -> dict[str, Any]:
        v = c.text((kind, "value", "input", "text", "string", "address", "number"))
        ok = _VALIDATORS[kind](v.strip())
        return {"value": v, "kind": kind, "valid": ok}

    return run


def _regex(c: Call) -> dict[str, Any]:
    pat = c.named("pattern", "regex", "regexp", "expression")
    text = c.named("text", "input", "string", "content", "subject", "source") or ""
    if not isinstance(pat, str):
        raise ToolError("give a regular expression in 'pattern'")
    try:
        rx = re.compile(pat)
    except re.error as exc:
        raise ToolError(f"invalid regular expression: {exc}") from None
    found = [m.group(0) for m in rx.finditer(str(text))][:100]
    return {"pattern": pat, "matches": found, "count": len(found), "matched": bool(found)}


_UNITS: dict[str, tuple[str, float]] = {
    "m": ("length", 1), "meter": ("length", 1), "metre": ("length", 1), "km": ("length", 1000), "kilometer": ("length", 1000),
    "cm": ("length", 0.01), "mm": ("length", 0.001), "mi": ("length", 1609.344), "mile": ("length", 1609.344),
    "ft": ("length", 0.3048), "foot": ("length", 0.3048), "feet": ("length", 0.3048), "in": ("length", 0.0254), "inch": ("length", 0.0254),
    "yd": ("length", 0.9144), "yard": ("length", 0.9144), "kg": ("mass", 1), "kilogram": ("mass", 1), "g": ("mass", 0.001),
    "gram": ("mass", 0.001), "mg": ("mass", 1e-6), "lb": ("mass", 0.45359237), "pound": ("mass", 0.45359237), "oz": ("mass", 0.028349523125),
    "ounce": ("mass", 0.028349523125), "t": ("mass", 1000), "ton": ("mass", 1000), "l": ("volume", 1), "liter": ("volume", 1),
    "litre": ("volume", 1), "ml": ("volume", 0.001), "gal": ("volume", 3.785411784), "gallon": ("volume", 3.785411784),
    "s": ("time", 1), "sec": ("time", 1), "second": ("time", 1), "min": ("time", 60), "minute": ("time", 60), "h": ("time", 3600),
    "hr": ("time", 3600), "hour": ("time", 3600), "day": ("time", 86400), "week": ("time", 604800),
    "b": ("data", 1), "byte": ("data", 1), "kb": ("data", 1e3), "mb": ("data", 1e6), "gb": ("data", 1e9), "tb": ("data", 1e12),
    "kib": ("data", 1024), "mib": ("data", 1024**2), "gib": ("data", 1024**3),
    "cup": ("volume", 0.2365882365), "tbsp": ("volume", 0.01478676478125), "tablespoon": ("volume", 0.01478676478125),
    "tsp": ("volume", 0.00492892159375), "teaspoon": ("volume", 0.00492892159375), "fl_oz": ("volume", 0.0295735295625),
    "floz": ("volume", 0.0295735295625), "fluid_ounce": ("volume", 0.0295735295625), "pint": ("volume", 0.473176473),
    "pt": ("volume", 0.473176473), "quart": ("volume", 0.946352946), "qt": ("volume", 0.946352946), "milliliter": ("volume", 0.001),
    "millilitre": ("volume", 0.001), "cl": ("volume", 0.01), "dl": ("volume", 0.1), "m3": ("volume", 1000),
    "c": ("temp", 0), "celsius": ("temp", 0), "f": ("temp", 0), "fahrenheit": ("temp", 0), "k": ("temp", 0), "kelvin": ("temp", 0),
}


def _unit(u: Any) -> str:
    s = re.sub(r"[\s-]+", "_", str(u or "").strip().lower().rstrip("."))
    if s in _UNITS:
        return s
    if s.endswith("s") and s[:-1] in _UNITS:
        return s[:-1]
    s2 = s.replace("°", "").replace("degrees", "").replace("degree", "").strip()
    if s2 in _UNITS:
        return s2
    raise ToolError(f"unknown unit {u!r}; known units include m, km, mi, ft, kg, lb, l, gal, s, h, mb, gb, celsius, fahrenheit")


def _to_c(v: float, u: str) -> float:
    return v if u in ("c", "celsius") else (v - 32) * 5 / 9 if u in ("f", "fahrenheit") else v - 273.15


def _from_c(v: float, u: str) -> float:
    return v if u in ("c", "celsius") else v * 9 / 5 + 32 if u in ("f", "fahrenheit") else v + 273.15


def _unit_convert(c: Call) -> dict[str, Any]:
    xs = c.numbers()
    if not xs:
        raise ToolError("give a value to convert")
    src = _unit(c.named("from_unit", "from", "source_unit", "unit_from", "input_unit", "unit", "from_units"))
    dst = _unit(c.named("to_unit", "to", "target_unit", "unit_to", "output_unit", "to_units"))
    (ka, fa), (kb, fb) = _UNITS[src], _UNITS[dst]
    if ka != kb:
        raise ToolError(f"cannot convert {ka} ({src}) to {kb} ({dst})")
    v = xs[0]
    out = _from_c(_to_c(v, src), dst) if ka == "temp" else v * fa / fb
    return {"value": v, "from_unit": src, "to_unit": dst, "result": round(out, 6)}


def fx_rate(seed: int, ccy: str) -> float:
    """Seeded USD value of one unit of a currency: stable for a seed, plausible in size."""
    base = USD_VALUE.get(ccy)
    r = rng_for("fx", seed, ccy)
    if base is None:
        base = round(r.uniform(0.01, 2.0), 4)
    return round(base * r.uniform(0.97, 1.03), 6)


def _currency(c: Call) -> dict[str, Any]:
    xs = c.numbers()
    amount = xs[0] if xs else 1.0
    src = str(c.named("from_currency", "from", "source_currency", "base", "base_currency", "currency_from", "source") or "USD").upper()
    dst = str(c.named("to_currency", "to", "target_currency", "quote", "target", "currency_to", "quote_currency") or "EUR").upper()
    if not re.fullmatch(r"[A-Z]{3,5}", src) or not re.fullmatch(r"[A-Z]{3,5}", dst):
        raise ToolError("currencies are 3-letter codes like USD, EUR, GBP")
    seed = c.svc.ctx.seed
    rate = fx_rate(seed, src) / fx_rate(seed, dst)
    return {"amount": amount, "from_currency": src, "to_currency": dst, "rate": round(rate, 6), "converted": round(amount * rate, 4)}


def _statistics(c: Call) -> dict[str, Any]:
    xs = c.numbers()
    if not xs:
        raise ToolError("give a list of numbers")
    one = len(xs) < 2
    return {"count": len(xs), "sum": _num(math.fsum(xs)), "mean": _num(statistics.fmean(xs)), "median": _num(statistics.median(xs)),
            "mode": _num(statistics.mode(xs)), "min": min(xs), "max": max(xs),
            "stdev": 0.0 if one else _num(statistics.stdev(xs)), "variance": 0.0 if one else _num(statistics.variance(xs)),
            "pstdev": _num(statistics.pstdev(xs))}


def _echo(c: Call) -> dict[str, Any]:
    return {"echo": c.text(("message", "text", "input", "value", "msg"))}


def _ping(c: Call) -> dict[str, Any]:
    return {"ok": True, "message": "pong", "at": c.svc.now()}


def _distance(c: Call) -> dict[str, Any]:
    xs = c.numbers()
    if len(xs) < 4:
        raise ToolError("give two coordinates (lat1, lon1, lat2, lon2)")
    la1, lo1, la2, lo2 = (math.radians(x) for x in xs[:4])
    if not all(-math.pi <= x <= math.pi for x in (la1, lo1, la2, lo2)):
        raise ToolError("coordinates out of range")
    h = math.sin((la2 - la1) / 2) ** 2 + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2
    km = 2 * 6371.0088 * math.asin(math.sqrt(min(1.0, h)))
    return {"kilometers": round(km, 3), "miles": round(km / 1.609344, 3)}


def _bmi(c: Call) -> dict[str, Any]:
    w = c.named("weight", "weight_kg", "mass")
    h = c.named("height", "height_cm", "height_m")
    if not isinstance(w, (int, float)) or not isinstance(h, (int, float)) or w <= 0 or h <= 0:
        raise ToolError("give a positive weight (kg) and height (m or cm)")
    hm = h / 100 if h > 3 else h
    bmi = w / (hm * hm)
    cat = "underweight" if bmi < 18.5 else "normal" if bmi < 25 else "overweight" if bmi < 30 else "obese"
    return {"bmi": round(bmi, 2), "category": cat}


def _loan(c: Call) -> dict[str, Any]:
    p = c.named("principal", "amount", "loan_amount", "loan")
    rate = c.named("rate", "interest_rate", "annual_rate", "apr", "interest")
    years = c.named("years", "term", "term_years", "duration", "loan_term")
    months = c.named("months", "term_months")
    if not isinstance(p, (int, float)) or not isinstance(rate, (int, float)):
        raise ToolError("give a principal and an annual interest rate")
    n = int(months) if isinstance(months, (int, float)) and months > 0 else int((years if isinstance(years, (int, float)) else 30) * 12)
    if n <= 0 or n > 1200:
        raise ToolError("the term must be 1-1200 months")
    r = (rate / 100 if rate > 1 else rate) / 12
    pay = p / n if r == 0 else p * r / (1 - (1 + r) ** -n)
    return {"monthly_payment": round(pay, 2), "total_paid": round(pay * n, 2), "total_interest": round(pay * n - p, 2), "months": n}


def _compound(c: Call) -> dict[str, Any]:
    p = c.named("principal", "amount", "initial", "present_value")
    rate = c.named("rate", "interest_rate", "annual_rate")
    years = c.named("years", "time", "t", "periods", "term")
    if not all(isinstance(x, (int, float)) for x in (p, rate, years)):
        raise ToolError("give principal, annual rate and years")
    if abs(years) > 1000:
        raise ToolError("years out of range")
    r = rate / 100 if rate > 1 else rate
    fv = p * (1 + r) ** years
    return {"future_value": round(fv, 2), "interest": round(fv - p, 2)}


def _sort(kind: str) -> Callable[[Call], dict[str, Any]]:
    def run(c: Call) -> dict[str, Any]:
        items = next((c.args[p] for p in c.order if isinstance(c.args.get(p), list)), [])
        try:
            if kind == "sort":
                out = sorted(items, key=lambda x: (str(type(x)), x) if not isinstance(x, (dict, list)) else (str(type(x)), json.dumps(x, sort_keys=True)))
            elif kind == "shuffle":
                out = list(items)
                _rng(c).shuffle(out)
            else:
                out, seen = [], set()
                for x in items:
                    k = json.dumps(x, sort_keys=True)
                    if k not in seen:
                        seen.add(k)
                        out.append(x)
        except TypeError as exc:
            raise ToolError(f"cannot {kind} these items: {exc}") from None
        return {"items": out, "count": len(out)}

    return run


def _base_convert(c: Call) -> dict[str, Any]:
    raw = c.named("number", "value", "input", "num")
    raw = c.text(("text", "number", "value", "input")) if raw is None else raw
    fb = c.named("from_base", "base_from", "input_base", "source_base")
    tb = c.named("to_base", "base_to", "output_base", "target_base")
    tb = int(tb) if isinstance(tb, (int, float)) else 2
    if not ((fb is None or isinstance(fb, (int, float)) and 2 <= fb <= 36) and 2 <= tb <= 36):
        raise ToolError("bases must be 2-36")
    try:  # without a base, a 0x / 0o / 0b prefix says it ("0x1f"), else decimal
        n = int(str(raw).strip(), int(fb)) if isinstance(fb, (int, float)) else int(str(raw).strip(), 0 if str(raw).strip().lower()[:2] in ("0x", "0o", "0b") else 10)
    except ValueError:
        raise ToolError(f"{raw!r} is not a base-{fb or 10} number") from None
    fb = int(fb) if isinstance(fb, (int, float)) else {"0x": 16, "0o": 8, "0b": 2}.get(str(raw).strip().lower()[:2], 10)
    digits, x, neg = "", abs(n), n < 0
    while True:
        digits = "0123456789abcdefghijklmnopqrstuvwxyz"[x % tb] + digits
        x //= tb
        if not x:
            break
    return {"input": str(raw), "from_base": fb, "to_base": tb, "result": ("-" if neg else "") + digits, "decimal": n, "hex": hex(n), "binary": bin(n)}


def _color(c: Call) -> dict[str, Any]:
    raw = str(c.text(("color", "hex", "value", "input")) or "").strip().lstrip("#")
    if not re.fullmatch(r"[0-9a-fA-F]{6}|[0-9a-fA-F]{3}", raw):
        raise ToolError("give a hex color like #1a2b3c")
    if len(raw) == 3:
        raw = "".join(ch * 2 for ch in raw)
    r, g, b = (int(raw[i:i + 2], 16) for i in (0, 2, 4))
    return {"hex": f"#{raw.lower()}", "rgb": [r, g, b]}


def _lorem(c: Call) -> dict[str, Any]:
    xs = [int(x) for x in c.numbers() if 1 <= x <= 500]
    n = xs[0] if xs else 50
    base = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua".split()
    return {"text": " ".join(base[i % len(base)] for i in range(n)), "words": n}


R = {"type": ["number", "integer"]}
COMPUTATIONS: dict[str, Computation] = {
    "expression": Computation("expression", _obj(expression=STR, result=R), _expression),
    **{f"arith_{op}": Computation(f"arith_{op}", _obj(operation=STR, operands={"type": "array", "items": R}, result=R), _arith(op))
       for op in ("add", "subtract", "multiply", "divide", "power", "sqrt", "modulo", "mean", "median", "max", "min", "factorial", "abs", "round", "percent", "ceil", "floor")},
    "now": Computation("now", _obj(datetime=STR, date=STR, time=STR, timezone=STR, utc_offset_hours=R, weekday=STR, unix=INT), _now),
    "convert_timezone": Computation("convert_timezone", _obj(source_time=STR, source_timezone=STR, target_timezone=STR, converted_time=STR, offset_hours=R), _convert_tz),
    "date_info": Computation("date_info", _obj(date=STR, weekday=STR, iso_week=INT, day_of_year=INT, days_in_month=INT, is_leap_year=BOOL), _date_info),
    "date_diff": Computation("date_diff", _obj(start=STR, end=STR, days=INT, seconds=INT), _date_diff),
    "uuid": Computation("uuid", _obj(uuid=STR), _uuid),
    # a range's draw says its bounds; a distribution's draw its parameters (`_distribution_draw`)
    "random_number": Computation("random_number", {"type": "object", "properties": {"min": R, "max": R, "result": R}, "required": ["result"]},
                                 _random_number),
    "password": Computation("password", _obj(password=STR, length=INT), _password),
    "dice": Computation("dice", _obj(notation=STR, rolls={"type": "array", "items": INT}, total=INT), _dice),
    "coin": Computation("coin", _obj(result=STR), _coin),
    "help": Computation("help", _obj(title=STR, content=STR, tools={"type": "array", "items": STR}), _help),
    **{f"clinical_{name}": Computation(f"clinical_{name}", _obj(**out), lambda c, fn=fn: fn(c.args)) for name, (fn, out) in CLINICAL.items()},
    "hash": Computation("hash", _obj(algorithm=STR, hash=STR), _hash),
    **{f"{k}_{d}": Computation(f"{k}_{d}", _obj(input=STR, output=STR, encoding=STR, direction=STR), _codec(k, d))
       for k in ("base64", "url", "hex", "html") for d in ("encode", "decode")},
    **{f"case_{k}": Computation(f"case_{k}", _obj(input=STR, result=STR), _text_case(k))
       for k in ("upper", "lower", "title", "capitalize", "reverse", "trim", "slug")},
    "document_convert": Computation("document_convert", _obj(input_format=STR, output_format=STR, content=STR), _document_convert),
    "count_text": Computation("count_text", _obj(characters=INT, characters_no_spaces=INT, words=INT, lines=INT, sentences=INT), _count),
    "json": Computation("json", _obj(valid=BOOL, error=STR, formatted=STR), _json_tool),
    **{f"validate_{k}": Computation(f"validate_{k}", _obj(value=STR, kind=STR, valid=BOOL), _validate(k)) for k in _VALIDATORS},
    "regex": Computation("regex", _obj(pattern=STR, matches={"type": "array", "items": STR}, count=INT, matched=BOOL), _regex),
    "unit_convert": Computation("unit_convert", _obj(value=R, from_unit=STR, to_unit=STR, result=R), _unit_convert),
    "currency_convert": Computation("currency_convert", _obj(amount=R, from_currency=STR, to_currency=STR, rate=R, converted=R), _currency),
    "statistics": Computation("statistics", _obj(count=INT, sum=R, mean=R, median=R, mode=R, min=R, max=R, stdev=R, variance=R, pstdev=R), _statistics),
    "echo": Computation("echo", _obj(echo=STR), _echo),
    "ping": Computation("ping", _obj(ok=BOOL, message=STR, at=STR), _ping),
    "distance": Computation("distance", _obj(kilometers=R, miles=R), _distance),
    "bmi": Computation("bmi", _obj(bmi=R, category=STR), _bmi),
    "loan": Computation("loan", _obj(monthly_payment=R, total_paid=R, total_interest=R, months=INT), _loan),
    "compound_interest": Computation("compound_interest", _obj(future_value=R, interest=R), _compound),
    **{f"list_{k}": Computation(f"list_{k}", _obj(items={"type": "array"}, count=INT), _sort(k)) for k in ("sort", "shuffle", "unique")},
    "base_convert": Computation("base_convert", _obj(input=STR, from_base=INT, to_base=INT, result=STR, decimal=INT, hex=STR, binary=STR), _base_convert),
    "color": Computation("color", _obj(hex=STR, rgb={"type": "array", "items": INT}), _color),
    "lorem": Computation("lorem", _obj(text=STR, words=INT), _lorem),
    **{f"epoch_{d}": Computation(f"epoch_{d}", {"type": "object", "properties": {
        "timestamp": INT, "datetime": STR, "date": STR,
        "items": {"type": "array", "items": _obj(timestamp=INT, datetime=STR, date=STR)}}}, _epoch(d)) for d in ("to_date", "to_timestamp")},
    **{f"math_{k}": Computation(f"math_{k}", _obj(function=STR, input={"type": "array", "items": R}, result=R), _math(k))
       for k in ("sin", "cos", "tan", "log", "radians", "degrees", "gcd", "lcm")},
    "math_perm": Computation("math_perm", _obj(function=STR, input={"type": "array", "items": R}, result=R), _math("perm")),
    "math_is_prime": Computation("math_is_prime", _obj(function=STR, input={"type": "array", "items": R}, result=BOOL), _math("is_prime")),
    "math_quadratic": Computation("math_quadratic", _obj(function=STR, input={"type": "array", "items": R}, discriminant=R,
                                                         roots={"type": "array", "items": {"type": ["number", "integer", "string"]}}),
                                  _math("quadratic")),
}


CODEC_NAME_WORDS = frozenset({"base64", "b64", "hex", "html", "url", "uri", "encode", "decode", "encoder", "decoder", "encoding", "decoding",
                              "escape", "unescape", "string", "str", "text", "data", "input", "component", "to", "from", "as", "utf8",
                              "tool", "convert", "converter", "get"})
EPOCH_WORDS = {"timestamp", "epoch", "unix"}


def epoch_conversion(name_words: set[str], params: set[str]) -> bool:
    """A tool that turns a Unix timestamp into a date or back, by its name (`getDateByTimestamp`,
    `get_timestamp`) or by its one parameter (`readableTime(timestamp)`); not one that merely takes a
    blockchain's `epoch`."""
    if name_words & EPOCH_WORDS:
        return bool(name_words & {"date", "datetime", "time", "convert", "format", "readable", "get", "to", "from"})
    return bool(params & {"timestamp", "ts", "unix_timestamp", "unix_time", "epoch_seconds"}) and \
        bool(name_words & {"readable", "date", "datetime", "format", "convert", "human"})


NUMBER_WORDS = frozenset({"number", "numbers", "integer", "integers", "int", "float", "floats", "decimal", "digit", "digits", "rng",
                          "gauss", "gaussian", "normal", "uniform", "vonmises", "exponential", "gamma", "beta", "triangular", "lognormal"})
RANGE_PARAMS = frozenset({"min", "max", "minimum", "maximum", "low", "high", "lower", "upper", "from", "to", "start", "end", "decimals", "precision"})


def recognize(tokens: set[str], verb: str | None, params: dict[str, str | None], required: set[str],
              numeric_arrays: frozenset[str] = frozenset()) -> str | None:
    """The computation a tool performs, from the words of its name and its parameters' names and
    types (`params`: name -> JSON type; `numeric_arrays`: the array parameters of numbers). None when
    it is not a computation this library knows."""
    pn = {p.lower().replace("-", "_") for p in params}
    pw = {w for p in pn for w in re.split(r"_+", p)}
    numeric = [p for p, t in params.items() if t in ("number", "integer")]
    arrays = [p for p, t in params.items() if t == "array"]
    strings = [p for p, t in params.items() if t == "string"]
    t = tokens | ({verb} if verb else set())
    if t & {"uuid", "guid"}:
        return "uuid"
    formula = clinical_formula(t, set(params))
    if formula is not None:
        return f"clinical_{formula}"  # a clinical calculator named for its formula (clinical.py)
    if t & {"help", "capabilities"} and not (required - HELP_TOPIC_PARAMS) and len(params) <= 2:
        return "help"  # `get_help()`, `get-opik-help(topic)`: what the integration's tools do
    if t & {"dice", "die"} or (t & {"roll"} and not t & {"back", "rollback"}):
        return "dice"
    if t & {"flip", "toss"} or (t & {"coin"} and t & {"random", "heads", "tails"}):
        return "coin"  # a coin flip, not CoinGecko's coin data or a coin's quotes
    if t & {"password", "passphrase"} and t & {"generate", "create", "random", "new"}:
        return "password"
    if "lorem" in t:
        return "lorem"
    # a random number, not a random record: `get_random_emoji()` draws an emoji, which no range describes
    if t & {"random"} and ((t & NUMBER_WORDS and (numeric or not params)) or (numeric and pn <= RANGE_PARAMS)):
        return "random_number"
    if t & {"hash", "md5", "sha1", "sha224", "sha256", "sha384", "sha512", "checksum", "digest"} and strings:
        return "hash"
    # a codec's name says only the format and the direction (`encodeUrl`, `base64_decode_text`);
    # `decode_level_from_url` decodes a game's level, which no URL decoding does
    codec = not t - CODEC_NAME_WORDS
    for k in ("base64", "hex", "html"):
        if k in t and strings and codec and (k != "html" or t & {"encode", "decode", "escape", "unescape", "encoding", "decoding"}):
            return f"{k}_{'decode' if t & {'decode', 'decoding', 'decoder'} else 'encode'}"
    if "url" in t and t & {"encode", "decode", "escape", "unescape"} and strings and codec:
        return f"url_{'decode' if t & {'decode', 'unescape'} else 'encode'}"
    if t & {"regex", "regexp"} and "pattern" in pn | pw:
        return "regex"
    if t & {"validate", "valid", "check", "verify", "is"}:
        for k in ("email", "url", "uuid", "ip", "phone", "card"):
            if k in t or (k == "card" and t & {"credit", "luhn"}):
                return f"validate_{k}"
    if "json" in t and t & {"format", "prettify", "pretty", "beautify", "validate", "parse", "minify", "lint"}:
        return "json"
    if numeric and not strings:  # functions of numbers: sin(x), log(x, base), gcd(a, b), is_prime(n)
        for fn, names in (("sin", {"sin", "sine"}), ("cos", {"cos", "cosine"}), ("tan", {"tan", "tangent"}),
                          ("log", {"log", "logarithm", "ln"}), ("gcd", {"gcd"}), ("lcm", {"lcm"})):
            if t & names and (fn not in ("gcd", "lcm") or len(numeric) >= 2) and \
                    (fn != "log" or pn <= {"x", "n", "number", "num", "value", "base"}):  # not `tail_log(lines)`
                return f"math_{fn}"
        if t & {"radians", "degrees"} and len(numeric) == 1:  # the parameter says what the number is in
            return "math_radians" if pn & {"degrees", "deg", "degree"} else "math_degrees" if pn & {"radians", "rad", "radian"} else None
        if t & {"permutation", "permutations"} and pn & {"n"}:
            return "math_perm"
        if "prime" in t and len(numeric) == 1:
            return "math_is_prime"
        if "quadratic" in t and len(numeric) >= 3:
            return "math_quadratic"
    number_lists = [p for p in arrays if p in numeric_arrays]
    if t & {"statistics", "stats", "descriptive", "stdev", "variance", "deviation"} and number_lists:
        return "statistics"
    if t & {"count", "counter", "statistics", "stats"} and t & {"word", "words", "character", "characters", "char", "chars", "text", "letters", "lines"}:
        return "count_text"
    for k, names in (("upper", {"uppercase", "upper"}), ("lower", {"lowercase", "lower"}), ("title", {"titlecase"}),
                     ("capitalize", {"capitalize"}), ("reverse", {"reverse"}), ("slug", {"slugify"}), ("trim", {"trim"})):
        if t & names and strings and not arrays:
            return f"case_{k}"
    if t & {"convert", "conversion", "exchange"} and t & {"currency", "currencies", "fx", "money", "forex"}:
        return "currency_convert"
    if t & {"convert", "conversion"} and (t & {"unit", "units", "temperature", "length", "weight", "measurement"} or pn & {"from_unit", "to_unit", "unit_from", "unit_to"}):
        return "unit_convert"
    if t & {"convert", "conversion"} and t & {"base", "binary", "octal", "hexadecimal", "decimal"}:
        return "base_convert"
    if t & {"color", "colour"} and t & {"convert", "hex", "rgb"}:
        return "color"
    # the name says it converts (a description's "Convert text to speech" is no document's conversion)
    if tokens & {"convert", "conversion", "converter"} and not tokens & {"speech", "audio", "voice", "sound", "image", "video"} \
            and pn & set(CONTENT_PARAMS) and pn & {"output_format", "to_format", "target_format"}:
        return "document_convert"  # Pandoc's `convert_contents`: text from one document format into another
    if len(params) == 1 and epoch_conversion(t, pn):  # one value, from or to a Unix timestamp
        only = next(iter(params.values()))
        if (only in ("number", "integer") or (only == "array" and numeric_arrays)) and t & {"date", "datetime", "convert", "format", "time"}:
            return "epoch_to_date"
        if only == "string" and not t & {"list", "search", "create", "set"}:
            return "epoch_to_timestamp"
    if t & {"convert", "conversion"} and t & {"time", "timezone", "timezones", "tz"}:
        return "convert_timezone"
    if t & {"distance", "haversine"} and len(numeric) >= 4:
        return "distance"
    if "bmi" in t:
        return "bmi"
    if t & {"loan", "mortgage"} and t & {"payment", "calculate", "calculator", "calc", "monthly", "compute"}:
        return "loan"
    if "compound" in t and "interest" in t:
        return "compound_interest"
    if t & {"days", "difference", "diff", "between", "duration"} and t & {"date", "dates", "days", "time"} and len(strings) >= 2 and not t & {"list", "search"}:
        return "date_diff"
    if t & {"weekday", "week", "leap", "month"} and t & {"day", "days", "week", "year", "weekday", "leap", "get", "calculate"} and len(params) <= 2 and not t & {"list", "search", "calendar", "event", "events"}:
        return "date_info"
    if (t & {"time", "now", "datetime", "clock", "timestamp", "today", "date"}) and (t & {"current", "now", "get", "today", "what", "local", "show", "tell"} or verb is None) \
            and set(pn) <= {"timezone", "tz", "time_zone", "zone", "format", "timezone_name", "location", "city", "locale"} and not t & {"list", "search", "relative"}:
        return "now"
    if verb in ("echo", "repeat") or t == {"echo"}:
        return "echo"
    if verb == "ping" or "ping" in t and not params:
        return "ping"
    if t & {"sort", "sorted"} and arrays and not t & {"list", "search", "get"}:
        return "list_sort"
    if t & {"shuffle"} and arrays:
        return "list_shuffle"
    if t & {"dedupe", "deduplicate", "unique"} and arrays:
        return "list_unique"
    ops = (("add", {"add", "sum", "plus", "addition"}), ("subtract", {"subtract", "minus", "subtraction", "difference"}),
           ("multiply", {"multiply", "times", "product", "multiplication"}), ("divide", {"divide", "division", "quotient"}),
           ("power", {"power", "pow", "exponent", "exponentiate"}), ("sqrt", {"sqrt", "root"}), ("modulo", {"modulo", "mod", "remainder"}),
           ("mean", {"average", "mean", "avg"}), ("median", {"median"}), ("factorial", {"factorial"}), ("abs", {"abs", "absolute"}),
           ("round", {"round"}), ("percent", {"percentage", "percent"}), ("ceil", {"ceiling", "ceil"}), ("floor", {"floor"}))
    if numeric or any(params.get(a) == "array" for a in arrays):
        for op, names in ops:
            # `minus_di(symbol, time_period)` names an indicator of a stock, not a subtraction: a required
            # text argument means the tool is about something other than its numbers
            if t & names and (len(numeric) >= 1 or arrays) and not (strings and not numeric and not arrays) \
                    and not any(p in required and params[p] == "string" for p in params):
                if op in ("max", "min"):
                    continue
                return f"arith_{op}"
        if t & {"maximum", "max"} and arrays and len(params) == 1:
            return "arith_max"
        if t & {"minimum", "min"} and arrays and len(params) == 1:
            return "arith_min"
    if t & {"calculate", "calc", "cal", "calculator", "evaluate", "eval", "compute", "math", "mathematical", "solve", "arithmetic",
            "calculation"} and strings:
        # arithmetic only when the argument or the tool says so: a script run in a browser, the rank of
        # a stored tensor or a project's quality is no expression to evaluate
        if pn & {"expression", "expr", "formula", "equation", "calculation", "math", "problem"} or \
                (t & {"calculator", "calc", "arithmetic", "math", "mathematical", "expression", "equation"}
                 and (len(strings) == 1 and len(params) == 1 or pn & {"input", "query"})):
            return "expression"
    return None
