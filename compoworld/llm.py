"""The one place that calls LiteLLM: chat completions with a response cache, retries, and offline mocks.

Responses are cached by the canonical JSON of the request, in memory and in a JSON Lines file under
the cache directory, so a rerun never asks the model the same thing twice. LiteLLM's
`mock_response` / `mock_tool_calls` pass straight through, which is how tests run offline.
No model configured is an error here; callers decide what their offline fallback is.
"""

from __future__ import annotations

import hashlib
import os
import threading
import time
from pathlib import Path
from typing import Any

import orjson
from pydantic import BaseModel, Field

REPO_ROOT = Path(__file__).resolve().parents[1]
_SECRET_KEYS = {"api_key", "aws_secret_access_key", "aws_access_key_id", "azure_ad_token", "token", "headers", "extra_headers"}


class NoModelConfigured(RuntimeError):
    """Raised when an LLM call is asked for without a model."""


class LLMUsage(BaseModel):
    prompt_tokens: int = 0
    completion_tokens: int = 0
    total_tokens: int = 0


class LLMResponse(BaseModel):
    model: str
    message: dict[str, Any]  # OpenAI-style assistant message: role, content, tool_calls
    usage: LLMUsage = Field(default_factory=LLMUsage)
    cached: bool = False
    key: str = ""

    @property
    def content(self) -> str:
        return self.message.get("content") or ""

    @property
    def tool_calls(self) -> list[dict[str, Any]]:
        return list(self.message.get("tool_calls") or [])


def cache_root() -> Path:
    """`COMPOWORLD_CACHE_DIR`, else `.cache/` at the repository root."""
    env = os.environ.get("COMPOWORLD_CACHE_DIR")
    return Path(env) if env else REPO_ROOT / ".cache"


def _cache_file() -> Path:
    return cache_root() / "llm" / "cache.jsonl"


_lock = threading.Lock()
_memory: dict[str, dict[str, Any]] = {}
_loaded: set[str] = set()


def _load(path: Path) -> None:
    key = str(path)
    if key in _loaded:
        return
    _loaded.add(key)
    if not path.exists():
        return
    for line in path.read_bytes().splitlines():
        try:
            entry = orjson.loads(line)
        except orjson.JSONDecodeError:
            continue  # a torn last line from an interrupted run: the call is simply made again
        if isinstance(entry, dict) and isinstance(entry.get("key"), str):
            _memory[f"{key}\x00{entry['key']}"] = entry


def request_key(request: dict[str, Any]) -> str:
    # `default=str` lets non-JSON values (a pydantic model, a path) key the cache by their text.
    return hashlib.sha256(orjson.dumps(request, option=orjson.OPT_SORT_KEYS, default=str)).hexdigest()


def cache_entries() -> list[dict[str, Any]]:
    """Every cached call (key, model, request, response, usage) in the JSONL cache file."""
    path = _cache_file()
    with _lock:
        _load(path)
        prefix = f"{path}\x00"
        return [dict(v) for k, v in _memory.items() if k.startswith(prefix)]


def _message_dict(msg: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"role": "assistant", "content": getattr(msg, "content", None)}
    calls = getattr(msg, "tool_calls", None) or []
    if calls:
        out["tool_calls"] = [
            {"id": getattr(c, "id", "") or f"call_{i}", "type": "function",
             "function": {"name": c.function.name, "arguments": c.function.arguments or "{}"}}
            for i, c in enumerate(calls)
        ]
    return out


def _retryable() -> tuple[type[BaseException], ...]:
    import litellm

    return tuple(getattr(litellm, n) for n in ("RateLimitError", "Timeout", "APIConnectionError", "ServiceUnavailableError")
                 if hasattr(litellm, n))


def chat(
    model: str,
    messages: list[dict[str, Any]],
    tools: list[dict[str, Any]] | None = None,
    *,
    temperature: float = 0.0,
    max_tokens: int | None = None,
    api_base: str | None = None,
    cache: bool = True,
    retries: int = 4,
    **litellm_kwargs: Any,
) -> LLMResponse:
    """One chat completion through LiteLLM (cached, retried with exponential backoff)."""
    if not model:
        raise NoModelConfigured("no LLM model configured: pass a LiteLLM model string (e.g. 'openai/gpt-4o-mini')")
    request: dict[str, Any] = {"model": model, "messages": messages, "tools": tools, "temperature": temperature,
                               "max_tokens": max_tokens, "api_base": api_base}
    request.update({k: v for k, v in litellm_kwargs.items() if k not in _SECRET_KEYS})
    key = request_key(request)
    path = _cache_file()
    mem_key = f"{path}\x00{key}"
    if cache:
        with _lock:
            _load(path)
            hit = _memory.get(mem_key)
        if hit is not None:
            return LLMResponse(model=hit["model"], message=hit["response"], usage=LLMUsage(**hit.get("usage", {})), cached=True, key=key)

    import litellm

    kwargs: dict[str, Any] = {"model": model, "messages": messages, "temperature": temperature, **litellm_kwargs}
    if tools:
        kwargs["tools"] = tools
    if max_tokens is not None:
        kwargs["max_tokens"] = max_tokens
    if api_base:
        kwargs["api_base"] = api_base
    retry_on = _retryable()
    attempt = 0
    while True:
        try:
            resp = litellm.completion(**kwargs)
            break
        except retry_on:
            if attempt >= retries:
                raise
            time.sleep(min(30.0, 0.5 * 2**attempt))
            attempt += 1
    message = _message_dict(resp.choices[0].message)
    u = getattr(resp, "usage", None)
    usage = LLMUsage(prompt_tokens=getattr(u, "prompt_tokens", 0) or 0, completion_tokens=getattr(u, "completion_tokens", 0) or 0,
                     total_tokens=getattr(u, "total_tokens", 0) or 0)
    out = LLMResponse(model=model, message=message, usage=usage, cached=False, key=key)
    if cache:
        entry = {"key": key, "model": model, "request": request, "response": message, "usage": usage.model_dump()}
        line = orjson.dumps(entry, default=str) + b"\n"
        with _lock:
            _memory[mem_key] = entry
            path.parent.mkdir(parents=True, exist_ok=True)
            with open(path, "ab") as fh:  # one write per entry: appends from parallel workers do not interleave
                fh.write(line)
    return out
