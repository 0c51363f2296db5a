"""Keep secrets out of everything the program prints or stores.

Known secrets are every configured key (``--api-key``, ``apiKey`` fields, secret-looking
header values and URL query parameters, registered when the config is loaded) plus the
value of every environment variable whose name looks like a credential — the variables
litellm reads for each provider (``OPENAI_API_KEY``, ``AZURE_AD_TOKEN``,
``AWS_SECRET_ACCESS_KEY``, ``HF_TOKEN``, …). ``redact`` replaces each of them, and the
usual key shapes, with ``***``.
"""

from __future__ import annotations

import os
import re
import threading
from typing import Iterable
from urllib.parse import parse_qsl, urlsplit

#: a header, config key or query parameter name that carries a secret
SECRET_NAME_RE = re.compile(r"key|token|secret|auth|passw|cookie|credential|signature|^sig$", re.I)
#: an environment variable that holds a credential (TOKENIZERS_PARALLELISM is not one)
_ENV_NAME_RE = re.compile(
    r"(?:^|_)(?:API_?KEY|APIKEY|KEY|TOKEN|SECRET|PASSWORD|PASSWD|ACCESS_KEY_ID|CREDENTIALS?)(?:_|$)", re.I
)
#: registered and environment values shorter than this are not treated as secrets: replacing
#: "true", "local" or "none" everywhere would garble output and JSON (real keys are longer)
MIN_SECRET_CHARS = 8
#: a secret handed to ``redact`` explicitly (the key of the call that failed) from this length
MIN_GIVEN_CHARS = 4
_SHAPES = [
    re.compile(r"\bsk-[A-Za-z0-9_\-]{6,}"),
    re.compile(r"(?i)(bearer\s+)[A-Za-z0-9._\-]{6,}"),
    re.compile(r"(?i)(api[_-]?key[\"'=:\s]+)[A-Za-z0-9._\-]{6,}"),
    re.compile(r"\bAIza[0-9A-Za-z_\-]{20,}"),
    # URL query parameters with secret names: ?api-key=…, &access_token=…, &sig=…
    # (name parts bounded: the pattern stays linear in the text, however long a run without separators)
    re.compile(r"(?i)([?&;][^=&\s#?]{0,64}(?:key|token|secret|auth|passw|signature|sig)[^=&\s#?]{0,64}=)[^&\s#\"'<>]+"),
    # secret headers written as "Name: value"
    re.compile(r"(?i)((?:ocp-apim-subscription-key|x-api-key|api-key|x-goog-api-key|authorization|cookie)\s*[:=]\s*)[^\s,;\"']+"),
]

_lock = threading.Lock()
_registered: set[str] = set()


def is_secret_name(name: object) -> bool:
    return bool(SECRET_NAME_RE.search(str(name)))


def register_secret(value: object) -> None:
    """Remember a configured secret so every later ``redact`` removes it."""
    if isinstance(value, str) and len(value.strip()) >= MIN_SECRET_CHARS:
        with _lock:
            _registered.add(value.strip())


def register_url(url: object) -> None:
    """Register the values of a URL's secret-named query parameters and its password."""
    if not isinstance(url, str) or not url:
        return
    try:
        parts = urlsplit(url)
    except ValueError:
        return
    for name, value in parse_qsl(parts.query, keep_blank_values=False):
        if is_secret_name(name):
            register_secret(value)
    if parts.password:
        register_secret(parts.password)


def env_secrets(environ: dict[str, str] | None = None) -> set[str]:
    env = os.environ if environ is None else environ
    return {v.strip() for k, v in env.items() if _ENV_NAME_RE.search(k) and len(v.strip()) >= MIN_SECRET_CHARS}


def known_secrets(extra: Iterable[str] = ()) -> list[str]:
    """Every secret to remove, longest first (so a key containing another goes whole)."""
    with _lock:
        found = set(_registered)
    found |= env_secrets()
    found |= {s for s in extra if isinstance(s, str) and len(s) >= MIN_GIVEN_CHARS}
    return sorted(found, key=len, reverse=True)


def redact(text: str, secrets: Iterable[str] = ()) -> str:
    """``text`` with every known secret (and the usual key shapes) replaced by ``***``."""
    if not isinstance(text, str) or not text:
        return text
    out = text
    for secret in known_secrets(secrets):
        if secret in out:
            out = out.replace(secret, "***")
    for pat in _SHAPES:
        out = pat.sub(lambda m: (m.group(1) if m.lastindex else "") + "***", out)
    return out


def secret_args(args: Iterable[object]) -> list[str]:
    """The secrets in a command line: the value after a secret-named flag (``--token X``),
    the value of ``--api-key=X``, and anything shaped like a key (``sk-…``)."""
    found: list[str] = []
    items = [str(a) for a in args]
    for i, arg in enumerate(items):
        flag, eq, value = arg.partition("=")
        if arg.startswith("-") and eq and is_secret_name(flag) and value:
            found.append(value)
        elif arg.startswith("-") and not eq and is_secret_name(arg) and i + 1 < len(items) and not items[i + 1].startswith("-"):
            found.append(items[i + 1])
        elif redact(arg) != arg:
            found.append(arg)
    return found
