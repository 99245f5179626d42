"""The tool-aware chat template for pretrained models (SmolLM2 and any ChatML model), and its parser.

The same text is what SFT trains on and what the local agent is asked to continue, so what the model
learns is what it is asked to do:

- the system turn lists every tool as its full JSON schema inside `<tools>...</tools>` (one per line);
- an assistant turn is its text, then each call as `<tool_call>{"name": ..., "arguments": {...}}</tool_call>`;
- each tool result is its own `tool` turn.

Every assistant turn, its `<|im_end|>` included, is inside `{% generation %}` (TRL's assistant-only
loss), and no turn depends on a later one (prefix-preserving, as TRL's tool loop requires).
`parse_tool_calls(text)` reads calls back from generated text the same way.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

TOOL_CALL_OPEN = "<tool_call>"
TOOL_CALL_CLOSE = "</tool_call>"
END_OF_TURN = "<|im_end|>"

TOOL_CHAT_TEMPLATE = """\
{%- if messages and messages[0].role == 'system' %}{%- set system = messages[0].content %}{%- set turns = messages[1:] %}\
{%- else %}{%- set system = '' %}{%- set turns = messages %}{%- endif %}\
{%- if system or tools %}\
{{- '<|im_start|>system\\n' + system }}\
{%- if tools %}\
{{- '\\n\\n# Tools\\nYou can call these tools (JSON schemas):\\n<tools>' }}\
{%- for tool in tools %}{{- '\\n' + (tool | tojson) }}{%- endfor %}\
{{- '\\n</tools>\\n\\nTo call a tool, write <tool_call>{\"name\": <tool-name>, \"arguments\": <args-json-object>}</tool_call>.' }}\
{%- endif %}\
{{- '<|im_end|>\\n' }}\
{%- endif %}\
{%- for message in turns %}\
{%- set content = message.content if message.content is string else '' %}\
{%- if message.role == 'user' or message.role == 'system' %}\
{{- '<|im_start|>' + message.role + '\\n' + content + '<|im_end|>\\n' }}\
{%- elif message.role == 'assistant' %}\
{{- '<|im_start|>assistant\\n' }}\
{%- generation %}\
{{- content }}\
{%- if message.tool_calls %}\
{%- for tool_call in message.tool_calls %}\
{%- set call = tool_call.function if tool_call.function else tool_call %}\
{%- if content or not loop.first %}{{- '\\n' }}{%- endif %}\
{{- '<tool_call>{\"name\": ' + (call.name | tojson) + ', \"arguments\": ' }}\
{%- if call.arguments is string %}{{- call.arguments }}{%- else %}{{- call.arguments | tojson }}{%- endif %}\
{{- '}</tool_call>' }}\
{%- endfor %}\
{%- endif %}\
{{- '<|im_end|>' }}\
{%- endgeneration %}\
{{- '\\n' }}\
{%- elif message.role == 'tool' %}\
{{- '<|im_start|>tool\\n' + content + '<|im_end|>\\n' }}\
{%- endif %}\
{%- endfor %}\
{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}{%- endif %}"""

# How a trainer reads an assistant turn of this template back into a message (transformers' response
# templates, `tokenizer.parse_response`): TRL's GRPOTrainer needs one to run tools, and knows only the
# templates of the models it ships for. The turn's format is Qwen3's (text, then calls as JSON in tags).
TOOL_RESPONSE_TEMPLATE: dict[str, Any] = {
    "defaults": {"role": "assistant"},
    "start_anchor": "<|im_start|>assistant\n",
    "fields": {
        "tool_calls": {"open": TOOL_CALL_OPEN, "close_pattern": r"</tool_call>\s*", "repeats": True, "content": "json",
                       "transform": {"type": "function", "function": "{content}"}},
        "content": {"close_pattern": r"<\|im_end\|>\s*", "content": "text"},
    },
}

_CALL = re.compile(re.escape(TOOL_CALL_OPEN) + r"\s*(.*?)\s*(?:" + re.escape(TOOL_CALL_CLOSE) + r"|$)", re.DOTALL)


def parse_tool_calls(text: str) -> list[dict[str, Any]]:
    """The tool calls in generated text, as `{"name": str, "arguments": dict}`, in order. A call whose
    closing tag was cut off (generation stopped at the end-of-turn token) still counts; one whose body is
    not a JSON object with a string `name` is skipped (see `split_response` to know there was one)."""
    return split_response(text)[1]


def split_response(text: str) -> tuple[str, list[dict[str, Any]], list[str]]:
    """(the text before the first call, the well-formed calls, the bodies of malformed calls)."""
    text = text.split(END_OF_TURN, 1)[0]
    calls: list[dict[str, Any]] = []
    bad: list[str] = []
    for body in _CALL.findall(text):
        try:
            obj = json.loads(body)
        except json.JSONDecodeError:
            bad.append(body)
            continue
        args = obj.get("arguments", {}) if isinstance(obj, dict) else None
        if isinstance(args, str):
            try:
                args = json.loads(args)
            except json.JSONDecodeError:
                args = None
        if not isinstance(obj, dict) or not isinstance(obj.get("name"), str) or not isinstance(args, dict):
            bad.append(body)
            continue
        calls.append({"name": obj["name"], "arguments": args})
    content = text.split(TOOL_CALL_OPEN, 1)[0].strip()
    return content, calls, bad


def load_template(path: str | Path | None) -> str | None:
    """A chat template from a file (`--chat-template FILE`): Jinja text, or a tokenizer_config-style JSON
    holding `chat_template`."""
    if path is None:
        return None
    text = Path(path).read_text()
    if Path(path).suffix == ".json":
        template = json.loads(text).get("chat_template")
        if not isinstance(template, str):
            raise ValueError(f"{path} has no 'chat_template' string")
        return template
    return text
