#!/bin/sh
# Put the installed `openclaw-tui` on PATH as a user-level command (issue 37: after `make run`
# the bare command the README and the quit line print was "command not found").
# Usage: link_command.sh TARGET BINDIR — TARGET is .venv/bin/openclaw-tui (absolute), BINDIR a
# folder (default ~/.local/bin). A symlink BINDIR/openclaw-tui -> TARGET is made or updated;
# a file of that name that is not our symlink is left alone and said. Prints one line on how to
# type the command when BINDIR is not on PATH.
set -eu
target=$1
bindir=${2:-$HOME/.local/bin}
link="$bindir/openclaw-tui"
if [ ! -x "$target" ]; then
	echo "note: $target is not installed yet (make install); nothing linked" >&2
	exit 0
fi
mkdir -p "$bindir"
if [ -e "$link" ] && [ ! -L "$link" ]; then
	echo "note: $link exists and is not a link to this checkout; left alone (run $target, or remove it and re-run make install)"
	exit 0
fi
ln -sfn "$target" "$link"
case ":${PATH:-}:" in
*":$bindir:"*) echo "openclaw-tui is on PATH: $link -> $target" ;;
*) echo "linked $link -> $target; $bindir is not on PATH: add it with  export PATH=\"$bindir:\$PATH\"  (e.g. in ~/.profile)" ;;
esac
