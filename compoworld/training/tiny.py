"""The default model: a tiny Qwen3-architecture model built from a config, with a byte-level BPE
tokenizer trained on the training data itself, so both trainers run on a CPU in seconds.

Its chat template renders ChatML turns with Qwen3's tool-call syntax, so TRL's Qwen3 response
parser reads its tool calls, and a Qwen3 checkpoint from the Hub is used the same way. It lists each
tool as one line `name(param, ...)` instead of a full JSON schema: an environment catalog has 100+
tools, which as JSON would be ~30k tokens per example, far past what a CPU smoke run can afford.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable, Iterator

from pydantic import BaseModel

SPECIAL_TOKENS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<tool_call>", "</tool_call>",
                  "<tool_response>", "</tool_response>", "<think>", "</think>"]
EOS = "<|im_end|>"
PAD = "<|endoftext|>"

# Prefix-preserving (no turn depends on a later one), as TRL's multi-turn tool loop requires; every
# assistant turn, its <|im_end|> included, is inside {% generation %} for assistant-only loss.
CHAT_TEMPLATE = """\
{%- if messages and messages[0].role == 'system' %}{%- set system = messages[0].content %}{%- set turns = messages[1:] %}\
{%- else %}{%- set system = '' %}{%- set turns = messages %}{%- endif %}\
{%- if system or tools %}\
{{- '<|im_start|>system\\n' + system }}\
{%- if tools %}\
{{- '\\n\\n# Tools\\n' }}\
{%- for tool in tools %}\
{%- set fn = tool.function if tool.function is defined else tool %}\
{%- set params = fn.parameters.properties if fn.parameters is defined and fn.parameters.properties is defined else {} %}\
{{- '\\n' + fn.name + '(' + (params | list | join(', ')) + ')' }}\
{%- endfor %}\
{{- '\\n\\nCall a tool with <tool_call>\\n{\"name\": <tool-name>, \"arguments\": <args-json-object>}\\n</tool_call>' }}\
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
{{- '<tool_call>\\n{\"name\": \"' + call.name + '\", \"arguments\": ' }}\
{%- if call.arguments is string %}{{- call.arguments }}{%- else %}{{- call.arguments | tojson }}{%- endif %}\
{{- '}\\n</tool_call>' }}\
{%- endfor %}\
{%- endif %}\
{{- '<|im_end|>' }}\
{%- endgeneration %}\
{{- '\\n' }}\
{%- elif message.role == 'tool' %}\
{%- if loop.first or turns[loop.index0 - 1].role != 'tool' %}{{- '<|im_start|>user' }}{%- endif %}\
{{- '\\n<tool_response>\\n' + content + '\\n</tool_response>' }}\
{%- if loop.last or turns[loop.index0 + 1].role != 'tool' %}{{- '<|im_end|>\\n' }}{%- endif %}\
{%- endif %}\
{%- endfor %}\
{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}{%- endif %}"""


class TinyConfig(BaseModel):
    vocab_size: int = 4096
    hidden_size: int = 64
    intermediate_size: int = 192
    num_hidden_layers: int = 2
    num_attention_heads: int = 4
    num_key_value_heads: int = 2
    head_dim: int = 16
    max_position_embeddings: int = 8192
    seed: int = 0


def texts_from_rows(rows: Iterable[dict[str, Any]]) -> Iterator[str]:
    """The text a tokenizer should know: message contents, tool calls as rendered, tool names and params."""
    seen_tools: set[str] = set()
    for row in rows:
        for m in list(row.get("messages") or []) + list(row.get("prompt") or []):
            if m.get("content"):
                yield m["content"]
            for c in m.get("tool_calls") or []:
                fn = c.get("function") or {}
                args = fn.get("arguments")
                yield f'{{"name": "{fn.get("name", "")}", "arguments": {args if isinstance(args, str) else json.dumps(args)}}}'
        for tool in row.get("tools") or []:
            fn = tool.get("function", tool)
            if fn.get("name") in seen_tools:
                continue
            seen_tools.add(fn.get("name"))
            yield f"{fn.get('name', '')}({', '.join((fn.get('parameters') or {}).get('properties') or {})})"


def train_tokenizer(texts: Iterable[str], vocab_size: int = 4096) -> Any:
    """A byte-level BPE tokenizer (any text encodes) with ChatML and tool-call special tokens."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=SPECIAL_TOKENS, min_frequency=2,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
    tok.train_from_iterator(texts, trainer)
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, eos_token=EOS, pad_token=PAD,
                                   additional_special_tokens=SPECIAL_TOKENS[1:], chat_template=CHAT_TEMPLATE)
    return with_response_template(fast)


def build_tiny(rows: Iterable[dict[str, Any]], out_dir: Path, cfg: TinyConfig | None = None) -> Path:
    """Train the tokenizer on `rows`, build a randomly initialized model from `cfg`, save both to `out_dir`."""
    import torch
    from transformers import GenerationConfig, Qwen3Config, Qwen3ForCausalLM

    cfg = cfg or TinyConfig()
    tokenizer = train_tokenizer(texts_from_rows(rows), cfg.vocab_size)
    torch.manual_seed(cfg.seed)
    config = Qwen3Config(
        vocab_size=len(tokenizer), hidden_size=cfg.hidden_size, intermediate_size=cfg.intermediate_size,
        num_hidden_layers=cfg.num_hidden_layers, num_attention_heads=cfg.num_attention_heads,
        num_key_value_heads=cfg.num_key_value_heads, head_dim=cfg.head_dim,
        max_position_embeddings=cfg.max_position_embeddings, tie_word_embeddings=True,
        eos_token_id=tokenizer.convert_tokens_to_ids(EOS), pad_token_id=tokenizer.convert_tokens_to_ids(PAD),
        bos_token_id=None,
    )
    model = Qwen3ForCausalLM(config)
    model.generation_config = GenerationConfig(eos_token_id=config.eos_token_id, pad_token_id=config.pad_token_id,
                                               bos_token_id=None)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out_dir)
    tokenizer.save_pretrained(out_dir)
    return out_dir


def load_tokenizer(path_or_id: str) -> Any:
    """A model's tokenizer; for a CompoWorld chat template, with its tool-call parser set again (in case the
    installed transformers does not persist `response_template`)."""
    from transformers import AutoTokenizer

    return with_response_template(AutoTokenizer.from_pretrained(path_or_id))


def with_response_template(tokenizer: Any) -> Any:
    """`tokenizer` with the parser of its chat template's turns when the template is one of ours and no parser
    is set: TRL reads generated tool calls with it and knows only the templates of the models it ships for.
    The tiny model's template writes Qwen3's syntax; the tool-aware one (SmolLM2's) has a template of its own."""
    from trl.chat_template_utils import qwen3_template

    from compoworld.training.chat import TOOL_CHAT_TEMPLATE, TOOL_RESPONSE_TEMPLATE

    parsers = {CHAT_TEMPLATE: qwen3_template, TOOL_CHAT_TEMPLATE: TOOL_RESPONSE_TEMPLATE}
    if getattr(tokenizer, "response_template", None) is None and tokenizer.chat_template in parsers:
        tokenizer.response_template = parsers[tokenizer.chat_template]
    return tokenizer
