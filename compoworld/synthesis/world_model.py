"""World-model tools: the few tools that cannot be local code (open-ended generation, transformation
of arbitrary content). With a model configured (`configure(model=...)` or COMPOWORLD_WORLD_MODEL)
they are simulated through `compoworld.llm` - prompted with the tool's spec, the relevant slice of
state and a few earlier outputs as examples, cached by the canonical JSON of all of that; otherwise
an offline seeded simulator answers. Either way each output is stored in the service's state
(`simulations`), so the same call returns the same output and later calls can see earlier ones;
the Environment marks every observation of these tools as simulated."""

from __future__ import annotations

import json
import os
import re
from typing import Any

from compoworld.canonical import canonical_bytes
from compoworld.services.json_schema import fits
from compoworld.synthesis.naming import words
from compoworld.synthesis.plan import ToolPlan
from compoworld.synthesis.world import rng_for

_CONFIG: dict[str, Any] = {}


def configure(model: str | None = None, api_base: str | None = None, **litellm_kwargs: Any) -> None:
    """Use `model` (a LiteLLM model string) for world-model tools; None restores the offline simulator."""
    _CONFIG.clear()
    if model:
        _CONFIG.update(model=model, api_base=api_base, kwargs=litellm_kwargs)


def configured_model() -> str | None:
    return _CONFIG.get("model") or os.environ.get("COMPOWORLD_WORLD_MODEL") or None


# -- output shapes ----------------------------------------------------------------------------

S, N, I = {"type": "string"}, {"type": "number"}, {"type": "integer"}


# A tool that runs the code it is given (a script in a browser, Python in a sandbox): what it prints
# depends on an interpreter, so it is a world-model tool answering an execution's output.
CODE_PARAMS = frozenset({"script", "code", "source_code", "js", "javascript", "js_code", "python_code", "python", "ruby",
                         "ruby_code", "snippet", "program", "source"})
RUN_WORDS = frozenset({"evaluate", "eval", "execute", "exec", "run", "interpret"})


def kind_of(t: ToolPlan) -> str:
    toks = set(words(t.original)) | ({t.verb} if t.verb else set())
    if toks & RUN_WORDS and any(p.lower() in CODE_PARAMS for p in (t.input_schema.get("properties") or {})):
        return "execution"
    if toks & {"image", "images", "picture", "photo", "logo", "icon", "illustration", "draw", "paint", "diagram", "art", "avatar", "thumbnail", "sticker"}:
        return "image"
    if toks & {"speech", "audio", "voice", "tts", "music", "song", "sound"} and not toks & {"transcribe", "transcript", "transcription"}:
        return "audio"
    if toks & {"translate", "translation"}:
        return "translation"
    if toks & {"summarize", "summarise", "summary", "tldr"}:
        return "summary"
    if toks & {"classify", "categorize", "sentiment", "detect", "moderate", "moderation", "toxicity", "score", "judge", "assess"}:
        return "classification"
    return "text"


def output_shape(t: ToolPlan) -> dict[str, Any]:
    k = kind_of(t)
    props: dict[str, Any] = {"id": S}
    if k == "image":
        props.update(image_url={**S, "x-semantic-type": "url"}, prompt={**S, "x-semantic-type": "text"}, width=I, height=I)
    elif k == "audio":
        props.update(audio_url={**S, "x-semantic-type": "url"}, duration_seconds=N, text={**S, "x-semantic-type": "text"})
    elif k == "translation":
        props.update(translation={**S, "x-semantic-type": "text"}, source_language=S, target_language=S)
    elif k == "summary":
        props.update(summary={**S, "x-semantic-type": "text"}, source_words=I)
    elif k == "execution":
        props.update(stdout={**S, "x-semantic-type": "text"}, exit_code=I)
    elif k == "classification":
        props.update(label={**S, "x-semantic-type": "category"}, confidence=N, explanation={**S, "x-semantic-type": "text"})
    else:
        props.update(result={**S, "x-semantic-type": "text"})
    return {"type": "object", "properties": props, "required": list(props)}


# -- simulation -------------------------------------------------------------------------------

def _main_text(args: dict[str, Any]) -> str:
    prefer = ("text", "content", "prompt", "input", "message", "query", "question", "description", "topic", "source_text", "body", "code")
    for p in prefer:
        for k, v in args.items():
            if k.lower() == p and isinstance(v, str):
                return v
    return next((v for v in args.values() if isinstance(v, str)), json.dumps(args, sort_keys=True, default=str)[:400])


def offline(svc: Any, t: ToolPlan, args: dict[str, Any]) -> dict[str, Any]:
    """A deterministic stand-in shaped by the tool's output schema: a function of (seed, tool, arguments)."""
    rng = rng_for(svc.ctx.seed, svc.name, t.name, canonical_bytes(args).decode())
    text = _main_text(args)
    excerpt = " ".join(text.split()[:24])
    k = kind_of(t)
    if k == "image":
        dims = [v for key, v in args.items() if isinstance(v, int) and not isinstance(v, bool) and key.lower() in ("width", "height", "size")]
        w = dims[0] if dims else 1024
        return {"image_url": f"https://images.simulated.example/{rng.getrandbits(48):012x}.png", "prompt": text[:500], "width": w,
                "height": dims[1] if len(dims) > 1 else w}
    if k == "audio":
        return {"audio_url": f"https://audio.simulated.example/{rng.getrandbits(48):012x}.mp3",
                "duration_seconds": round(max(1, len(text.split())) * 0.4, 1), "text": text[:500]}
    if k == "translation":
        target = next((str(v) for key, v in args.items() if re.search(r"target|to_lang|to$|dest", key.lower()) and isinstance(v, str)), "en")
        source = next((str(v) for key, v in args.items() if re.search(r"source|from", key.lower()) and isinstance(v, str) and v != text), "auto")
        return {"translation": f"[{target}] {text}", "source_language": source, "target_language": target}
    if k == "summary":
        sentences = [s.strip() for s in re.split(r"(?<=[.!?])\s+", text) if s.strip()]
        summary = " ".join(sentences[:2]) if sentences else excerpt
        return {"summary": " ".join(summary.split()[:60]), "source_words": len(text.split())}
    if k == "execution":
        code = next((str(v) for key, v in args.items() if key.lower() in CODE_PARAMS), text)
        lines = len([ln for ln in code.splitlines() if ln.strip()]) or 1
        return {"stdout": f"Simulated run of {lines} line{'s' if lines > 1 else ''} of code: no interpreter runs offline, so nothing was printed.",
                "exit_code": 0}
    if k == "classification":
        labels = _labels(t)
        return {"label": rng.choice(labels), "confidence": round(rng.uniform(0.55, 0.98), 2),
                "explanation": f"Simulated assessment of: {excerpt}"}
    # no made-up content: random words would read as an answer from another domain (a coin's market data
    # as "Pricing analytics audit webinar"); the stand-in says what it is, and a configured model answers
    return {"result": f"Simulated {t.original} for \"{excerpt}\": no world model is configured (COMPOWORLD_WORLD_MODEL), "
                      "so nothing was generated offline."}


def _labels(t: ToolPlan) -> list[str]:
    for sub in (t.input_schema.get("properties") or {}).values():
        if isinstance(sub, dict) and isinstance(sub.get("items", {}), dict) and isinstance(sub.get("items", {}).get("enum"), list):
            vals = [v for v in sub["items"]["enum"] if isinstance(v, str)]
            if vals:
                return vals
    toks = set(words(t.original))
    if toks & {"sentiment"}:
        return ["positive", "neutral", "negative"]
    if toks & {"moderate", "moderation", "toxicity", "safety", "harmful"}:
        return ["safe", "unsafe"]
    return ["relevant", "partially_relevant", "not_relevant"]


def _relevant(svc: Any, args: dict[str, Any], limit: int = 5) -> list[dict[str, Any]]:
    """Records of the service that an argument names (by id or by an equal string value)."""
    wanted = {v for v in args.values() if isinstance(v, str) and v}
    out: list[dict[str, Any]] = []
    for coll, table in svc.db.items():
        if coll == "simulations":
            continue
        for row in table:
            if any(isinstance(v, str) and v in wanted for v in row.values()):
                out.append({"collection": coll, "record": row})
                if len(out) >= limit:
                    return out
    return out


def _llm(svc: Any, t: ToolPlan, args: dict[str, Any], examples: list[dict[str, Any]]) -> dict[str, Any] | None:
    from compoworld import llm

    model = configured_model()
    schema = {k: v for k, v in output_shape(t).items()}
    body = {
        "tool": {"name": t.original, "description": t.description, "input_schema": t.input_schema, "output_schema": schema},
        "service": {"name": svc.name, "description": svc.description},
        "state": {"records_mentioned_in_arguments": _relevant(svc, args), "earlier_outputs_of_this_tool": examples},
        "arguments": args,
    }
    messages = [
        {"role": "system", "content": "You simulate one tool of a software service. Reply with only a JSON object that matches "
                                      "the tool's output_schema (omit 'id'), consistent with the earlier outputs shown."},
        {"role": "user", "content": json.dumps(body, sort_keys=True, default=str)},
    ]
    try:
        resp = llm.chat(model or "", messages, temperature=0.0, api_base=_CONFIG.get("api_base"), **_CONFIG.get("kwargs", {}))
    except Exception:
        return None  # an unreachable or failing model falls back to the offline simulator
    text = resp.content.strip()
    m = re.search(r"\{.*\}", text, re.S)
    try:
        out = json.loads(m.group(0) if m else text)
    except (json.JSONDecodeError, AttributeError):
        return None
    if not isinstance(out, dict):
        return None
    out.pop("id", None)
    return out if fits({**schema, "required": [r for r in schema["required"] if r != "id"]}, out) else None


def simulate(svc: Any, t: ToolPlan, args: dict[str, Any]) -> dict[str, Any]:
    """The output of a world-model tool for these arguments: stored, so repeated calls agree."""
    table = svc.db["simulations"]  # runtime.SIMULATIONS
    key = canonical_bytes([t.name, args]).decode()
    prev = table.first(tool=t.name, input_key=key)
    if prev is not None:
        return {"id": prev["id"], **prev["output"]}
    out = None
    source = "offline"
    if configured_model():
        earlier = [{"arguments": r["arguments"], "output": r["output"]} for r in table.find(tool=t.name)][-3:]
        out = _llm(svc, t, args, earlier)
        if out is not None:
            source = f"llm:{configured_model()}"
    if out is None:
        out = offline(svc, t, args)
    row = table.insert({"tool": t.name, "input_key": key, "arguments": args, "output": out, "source": source, "created_at": svc.now()})
    return {"id": row["id"], **out}
