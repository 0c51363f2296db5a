"""Slash commands: one registry whose order is the menu order.

Pure data and parsing — no Textual here, so the table is testable on its own and the
command palette, the completion hint and ``/help`` all read the same list.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class SlashCommand:
    name: str  # full command word(s) without the slash, e.g. "memory search"
    args: str  # argument synopsis for help, "" when none
    help: str
    mid_turn: bool  # may run while a turn is streaming
    needs_arg: bool = False

    @property
    def usage(self) -> str:
        return f"/{self.name}" + (f" {self.args}" if self.args else "")


COMMANDS: tuple[SlashCommand, ...] = (
    SlashCommand("help", "", "list commands and keys", mid_turn=True),
    SlashCommand("new", "", "start a new session", mid_turn=False),
    SlashCommand("resume", "[--all] [id]", "resume a session of this workspace: a picker, or an id (--all: every workspace and key)", mid_turn=False),
    SlashCommand("copy", "[n]", "copy the last reply (n: the n-th from the end) to the clipboard", mid_turn=True),
    SlashCommand("compact", "[instructions]", "summarise older history now", mid_turn=False),
    SlashCommand("flush", "", "store durable memories now (silent turn)", mid_turn=False),
    SlashCommand("memory search", "<query>", "search memory; results go to the side panel", mid_turn=True, needs_arg=True),
    # takes --all (every field), left out of the synopsis: "/memory status" completes without a space
    SlashCommand("memory status", "", "index status (--all: every field)", mid_turn=True),
    SlashCommand("memory index", "[--force]", "sync the memory index (--force rebuilds)", mid_turn=False),
    SlashCommand("memory open", "[file]", "open a memory file in $EDITOR (default: today's note)", mid_turn=False),
    SlashCommand("memory history", "[file]", "kept versions of memory files, newest first", mid_turn=True),
    SlashCommand("memory restore", "<file> [--to ID] [--yes]", "bring back a file's version from before a change", mid_turn=False, needs_arg=True),
    SlashCommand("undo", "", "revert this session's last memory file change", mid_turn=False),
    # also takes --path P --lines A-B, left out of the synopsis to keep the menu one column
    SlashCommand("forget", "<words>", "remove a fact from memory (asks; also --path P --lines A-B)", mid_turn=False, needs_arg=True),
    SlashCommand("model", "[name]", "switch model: a picker, or any litellm model string", mid_turn=False),
    SlashCommand("status", "", "model, session, workspace, tokens", mid_turn=True),
    SlashCommand("mcp", "", "MCP servers: their state and tools", mid_turn=True),
    SlashCommand("init", "", "set up the workspace from the template (never overwrites)", mid_turn=False),
    SlashCommand("quit", "", "leave the app", mid_turn=True),
)

BY_NAME = {c.name: c for c in COMMANDS}


class SlashError(ValueError):
    """A slash command the user typed cannot run; the message says what to type instead."""


@dataclass(frozen=True)
class ParsedCommand:
    command: SlashCommand
    arg: str  # the raw argument text, stripped

    @property
    def name(self) -> str:
        return self.command.name


def is_slash(text: str) -> bool:
    stripped = text.lstrip()
    return stripped.startswith("/") and not stripped.startswith("//")


def parse(text: str) -> ParsedCommand:
    """Parse ``/name [args]``; raise :class:`SlashError` with a one-line hint."""
    body = text.strip()
    if not body.startswith("/"):
        raise SlashError("not a command: start with /")
    body = body[1:]
    words = body.split(None, 2)
    if not words:
        raise SlashError("empty command: type /help for the list")
    first = words[0].lower()
    if first == "memory":
        if len(words) < 2:
            raise SlashError("usage: /memory search <query> | status | index [--force] | open [file] | history [file] | restore <file>")
        name = f"memory {words[1].lower()}"
        rest = words[2] if len(words) > 2 else ""
    else:
        name = first
        rest = body.split(None, 1)[1] if len(body.split(None, 1)) > 1 else ""
    cmd = BY_NAME.get(name)
    if cmd is None:
        guesses = complete("/" + name)
        hint = f" — did you mean {guesses[0].strip()}?" if guesses else " — type /help for the list"
        raise SlashError(f"unknown command /{name}{hint}")
    rest = rest.strip()
    if cmd.needs_arg and not rest:
        raise SlashError(f"usage: {cmd.usage}")
    if cmd.name == "memory index" and rest not in ("", "--force"):
        raise SlashError("usage: /memory index [--force]")
    if cmd.name == "memory status" and rest not in ("", "--all"):
        raise SlashError("usage: /memory status [--all]")
    if cmd.name == "resume" and rest and len([w for w in shlex.split(rest) if w != "--all"]) > 1:
        raise SlashError("usage: /resume [--all] [id]")
    return ParsedCommand(cmd, rest)


def complete(prefix: str, arg_values: Callable[[str], list[str]] | None = None) -> list[str]:
    """Completions for what the user has typed so far, in menu order.

    ``/me`` → ``/memory search ``, ``/memory status``, ``/memory index ``; ``/memory s`` →
    ``/memory search ``, ``/memory status``. Commands that take an argument end in a space.
    Once a command word is complete, ``arg_values(name)`` (if given) supplies argument
    values: ``/resume 2f`` → ``/resume 2f1c…`` for the saved session ids.
    """
    text = prefix.lstrip()
    if not text.startswith("/"):
        return []
    typed = text[1:].lower()
    # collapse repeated spaces so "/memory  s" still completes
    typed_norm = " ".join(typed.split()) + (" " if typed.endswith(" ") and typed.strip() else "")
    out = []
    for cmd in COMMANDS:
        if cmd.name.startswith(typed_norm):
            out.append("/" + cmd.name + (" " if cmd.args else ""))
    if out or arg_values is None:
        return out
    words = text[1:].split()
    for cmd in COMMANDS:
        name_words = cmd.name.split()
        n = len(name_words)
        if not cmd.args or [w.lower() for w in words[:n]] != name_words:
            continue
        if len(words) > n + 1 or (len(words) == n and not text.endswith(" ")):
            return []
        partial = words[n] if len(words) > n else ""
        try:
            values = arg_values(cmd.name)
        except Exception:  # noqa: BLE001 - completion must never break typing
            return []
        return [f"/{cmd.name} {v}" for v in values if v.startswith(partial) and v != partial]
    return []


def common_prefix(options: list[str]) -> str:
    if not options:
        return ""
    first, last = min(options), max(options)
    n = 0
    while n < len(first) and n < len(last) and first[n] == last[n]:
        n += 1
    return first[:n]


def help_markdown() -> str:
    lines = ["**Commands**", ""]
    for cmd in COMMANDS:
        flag = "" if cmd.mid_turn else " *(not during a reply)*"
        lines.append(f"- `{cmd.usage}` — {cmd.help}{flag}")
    lines += [
        "",
        "**Keys**: Enter send (during a reply: queued, sent in order when it ends) · "
        "Ctrl+J or Alt+Enter new line (Shift+Enter where the terminal reports it) · ↑/↓ history (↑ on an empty prompt takes the last queued prompt back) · "
        "Tab complete (↑/↓ and Enter pick from the menu) · Ctrl+C or Esc cancel the reply · "
        "Ctrl+C twice on an idle prompt, or Ctrl+Q, quit · PgUp/PgDn scroll the chat · "
        "End on an empty prompt (or Ctrl+End) back to the bottom · Ctrl+O side panel · "
        "Ctrl+L memory list · Alt+↑ select a message (↑/↓ move, c copies, Esc back) · "
        "Ctrl+C with text selected copies it · Ctrl+P command palette · Ctrl+T light/dark",
    ]
    return "\n".join(lines)
