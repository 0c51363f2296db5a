"""What a scenario file's ``config:`` may not set: anything that starts a process, loads
code or names an endpoint (or the key sent to one).

A scenario is data: it is shared, downloaded and run to check behaviour, so running it must
never execute a command or send the user's memory and keys somewhere the user's own config
does not. Refused: the ``mcp`` and ``models`` sections whole, the memory backend and its
``qmd`` settings (the ``qmd`` process), and wherever they appear, keys that name a command
(``command``, ``args``, ``env``, ``cwd``), an endpoint or its credentials (``url``,
``baseUrl``, ``headers``, ``apiKey``, ``remote``), a provider or chat model (``provider``,
``fallback``, ``model``), or a file of code or weights to load (``extensionPath``,
``modelPath``, ``modelCacheDir``). Those stay in openclaw.json and on the command line.
"""

from __future__ import annotations

from typing import Any

#: refused wherever they appear (compared lower-case, without ``_``: ``baseUrl`` = ``base_url``)
_ANYWHERE = frozenset({
    "command", "args", "env", "cwd", "url", "baseurl", "headers", "apikey", "remote", "provider", "fallback",
    "model", "extensionpath", "modelpath", "modelcachedir",
})
#: refused at these paths (the first keys of the config)
_SECTIONS = (("mcp",), ("models",), ("memory", "backend"), ("memory", "qmd"))


def _norm(key: object) -> str:
    return str(key).replace("_", "").replace("-", "").lower()


def _label(path: list[str]) -> str:
    out = "config"
    for part in path:
        out += part if part.startswith("[") else f".{part}"
    return out


def refused_key(config: Any, path: list[str] | None = None) -> str | None:
    """The first key of a scenario's ``config:`` that it may not set (as ``config.a.b``), or None."""
    path = path or []
    if isinstance(config, dict):
        for key, value in config.items():
            here = [*path, str(key)]
            normed = tuple(_norm(p) for p in here if not p.startswith("["))
            if _norm(key) in _ANYWHERE or any(normed[: len(s)] == s for s in _SECTIONS):
                return _label(here)
            found = refused_key(value, here)
            if found:
                return found
    elif isinstance(config, list):
        for i, value in enumerate(config):
            found = refused_key(value, [*path, f"[{i}]"])
            if found:
                return found
    return None


def refusal(config: Any, source: str) -> str | None:
    """The one-line refusal for a scenario whose ``config:`` sets such a key, or None."""
    key = refused_key(config)
    if key is None:
        return None
    return (f"{source}: {key} may not be set by a scenario: it starts a process or names an endpoint; "
            "set it in openclaw.json or on the command line instead")
