"""Token counts of SFT rows as a model sees them (its tokenizer, the chat template it trains with), and
the check that they fit a training length before any training starts."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, Iterable, Sequence

from compoworld.rollout.trajectory import loads_arguments


class FitError(ValueError):
    """Rows that do not fit the training length; the message is one line saying what would fit."""


def row_tools(row: dict[str, Any]) -> list[dict[str, Any]] | None:
    """The row's tools as schemas (a Parquet layout read without `datasets` holds them as JSON strings)."""
    tools = row.get("tools")
    if isinstance(tools, str):
        tools = json.loads(tools)
    return [json.loads(t) if isinstance(t, str) else t for t in tools] if tools else None


def row_messages(row: dict[str, Any]) -> list[dict[str, Any]]:
    """The row's messages with tool-call arguments as objects, as `datasets` decodes them (read without
    it they are JSON strings, with escaped slashes, which the template would render verbatim)."""
    out = []
    for m in row["messages"]:
        calls = m.get("tool_calls")
        if calls:
            calls = [dict(c, function=dict(c["function"], arguments=loads_arguments(c["function"].get("arguments"))))
                     for c in calls]
            m = dict(m, tool_calls=calls)
        out.append(m)
    return out


def row_tokens(tokenizer: Any, row: dict[str, Any], chat_template: str | None = None) -> int:
    ids = tokenizer.apply_chat_template(row_messages(row), tools=row_tools(row), tokenize=True,
                                        return_dict=False, chat_template=chat_template)
    return len(ids)


def token_counts(tokenizer: Any, rows: Iterable[dict[str, Any]], chat_template: str | None = None) -> list[int]:
    return [row_tokens(tokenizer, r, chat_template) for r in rows]


def prompt_tokens(tokenizer: Any, row: dict[str, Any], chat_template: str | None = None) -> int:
    """Tokens before the row's first assistant token (its tools, system and user turns, and the
    assistant header): a row cut shorter than this has nothing to learn from."""
    messages = row_messages(row)
    first = next((i for i, m in enumerate(messages) if m.get("role") == "assistant"), len(messages))
    ids = tokenizer.apply_chat_template(messages[:first], tools=row_tools(row), tokenize=True, return_dict=False,
                                        add_generation_prompt=True, chat_template=chat_template)
    return len(ids)


def check_truncation(prompts: Sequence[int], max_length: int | None) -> list[int]:
    """With rows cut to `max_length`: the indices of the rows that keep an assistant token (TRL drops the
    others); a `FitError` when none does."""
    if max_length is None:
        return list(range(len(prompts)))
    keep = [i for i, c in enumerate(prompts) if c < max_length]
    if not keep and prompts:
        s = summarize(prompts)
        raise FitError(f"no row keeps an assistant token in its first {max_length} tokens: the prompts before the "
                       f"first assistant turn are {s['median']} tokens at the median, {min(prompts)} at least; "
                       f"pass --max-length {s['max'] + 256} or more")
    return keep


def percentile(values: Sequence[int], q: float) -> int:
    """Nearest-rank percentile (a length some row actually has)."""
    s = sorted(values)
    return s[max(0, math.ceil(q / 100 * len(s)) - 1)] if s else 0


def summarize(counts: Sequence[int]) -> dict[str, int]:
    return {"rows": len(counts), "median": percentile(counts, 50), "p95": percentile(counts, 95),
            "max": max(counts) if counts else 0}


def fit_message(counts: Sequence[int], max_length: int | None) -> str | None:
    """None when every row fits `max_length` tokens, else one line: how many fit and what length would."""
    if max_length is None or not counts:
        return None
    fit = sum(c <= max_length for c in counts)
    if fit == len(counts):
        return None
    s = summarize(counts)
    most = f" or {s['p95']} (95% fit)" if s["p95"] < s["max"] else ""
    drop = f", --drop-long-rows to train on the {fit} that fit" if fit else ""
    return (f"{len(counts) - fit} of {len(counts)} rows do not fit --max-length {max_length} ({fit} fit); rows are "
            f"{s['median']} tokens at the median, {s['p95']} at p95, {s['max']} at most: pass --max-length {s['max']} "
            f"(all fit){most} if the model's context allows it{drop}, or --truncate-long-rows to train on the first "
            f"{max_length} tokens of every row")


def check_fit(counts: Sequence[int], max_length: int | None, drop_long: bool = False, truncate: bool = False) -> list[int]:
    """The indices of the rows to train on: all of them when they fit or with `truncate` (rows are cut to
    `max_length`); with `drop_long`, those that fit (an error when none does); otherwise rows that do not
    fit are an error (`FitError`, one line)."""
    message = fit_message(counts, max_length)
    if not message or truncate:
        return list(range(len(counts)))
    keep = [i for i, c in enumerate(counts) if max_length is not None and c <= max_length]
    if drop_long and keep:
        return keep
    raise FitError(message)


def sft_token_report(layout: Path, model: str = "smollm2", split: str = "train") -> dict[str, Any]:
    """Token counts per SFT row of a built layout with `model`'s tokenizer and the tool-aware template
    (full schemas), per discovery mode, and the direct/gateway ratio at the median when both are present."""
    import pyarrow.parquet as pq

    from compoworld.datasets.layout import read_manifest
    from compoworld.training.chat import TOOL_CHAT_TEMPLATE
    from compoworld.training.models import tokenizer_dir
    from transformers import AutoTokenizer

    manifest = read_manifest(layout)
    tokenizer = AutoTokenizer.from_pretrained(tokenizer_dir(model))
    rows = []
    for name, s in manifest["splits"].items():
        if split in (name, "all"):
            rows += pq.read_table(Path(layout) / s["file"]).to_pylist()
    by_mode: dict[str, list[int]] = {}
    for r in rows:
        by_mode.setdefault(r.get("discover_mode") or "direct", []).append(row_tokens(tokenizer, r, TOOL_CHAT_TEMPLATE))
    out: dict[str, Any] = {"model": model, "template": "tool-aware (full JSON schemas)", "split": split,
                           "modes": {m: summarize(c) for m, c in sorted(by_mode.items())}}
    if "direct" in by_mode and "gateway" in by_mode:
        out["direct_over_gateway_median"] = round(out["modes"]["direct"]["median"] / max(out["modes"]["gateway"]["median"], 1), 2)
    return out
