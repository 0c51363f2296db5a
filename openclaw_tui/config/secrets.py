"""SecretRef objects on secret config keys (OpenClaw's ``{source, provider, id}`` shape).

OpenClaw lets a credential be a plain string or a reference: ``{source: "env", provider:
"default", id: "OPENAI_API_KEY"}`` (also ``file`` and ``exec``). We accept the same objects
on the same keys (``models.providers.*.apiKey``, ``models.providers.*.headers.*`` and
``memorySearch.remote.apiKey``, defaults and per agent), so such a config loads unchanged.

Resolution is lazy: a reference is read only when the key is actually used (the chat model
that was picked, the embedding provider that was picked). ``env`` is resolved from the
process environment; ``file`` and ``exec`` need OpenClaw's ``secrets.providers`` machinery
and are refused with a one-line error naming the key — only if that key is needed.
"""

from __future__ import annotations

import os
import re
from typing import Annotated, Any, Literal, Mapping, Union

from pydantic import BaseModel, ConfigDict, PlainSerializer, PlainValidator, ValidationError, model_validator

from openclaw_tui.config.errors import ConfigError
from openclaw_tui.redaction import register_secret

_PROVIDER_RE = re.compile(r"^[a-z][a-z0-9_-]{0,63}$")
_ENV_ID_RE = re.compile(r"^[A-Z][A-Z0-9_]{0,127}$")


class SecretUnavailable(ConfigError):
    """A SecretRef that cannot be resolved, raised only when its key is needed."""


class SecretRef(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    source: Literal["env", "file", "exec"]
    provider: str = "default"
    id: str

    @model_validator(mode="after")
    def _check_shape(self) -> "SecretRef":
        if not _PROVIDER_RE.match(self.provider):
            raise ValueError(f"SecretRef provider {self.provider!r} must be lowercase letters, digits, '-' or '_' (e.g. \"default\")")
        if self.source == "env" and not _ENV_ID_RE.match(self.id):
            raise ValueError(f"env SecretRef id {self.id!r} must be an environment variable name like OPENAI_API_KEY")
        if self.source == "file" and not (self.id == "value" or self.id.startswith("/")):
            raise ValueError(f"file SecretRef id {self.id!r} must be an absolute JSON pointer (\"/providers/openai/apiKey\") or \"value\"")
        if self.source == "exec" and not self.id.strip():
            raise ValueError("exec SecretRef id must not be empty")
        return self

    def __repr__(self) -> str:  # never more than the reference itself
        return f"SecretRef(source={self.source!r}, provider={self.provider!r}, id={self.id!r})"

    def describe(self) -> str:
        return f"{{source: {self.source}, provider: {self.provider}, id: {self.id}}}"


def _parse_secret_input(value: Any) -> Any:
    """A string, or a SecretRef object — with one clear message instead of a union's two."""
    if value is None or isinstance(value, (str, SecretRef)):
        return value
    if not isinstance(value, dict):
        raise ValueError("must be a string or a SecretRef object {source, provider, id}")
    try:
        return SecretRef.model_validate(value)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        msg = str(first.get("msg", "invalid")).removeprefix("Value error, ")
        raise ValueError(f"invalid SecretRef{(' ' + where) if where else ''}: {msg}") from None


#: what a secret key holds: a plain string or a reference
SecretInput = Annotated[
    Union[str, SecretRef],
    PlainValidator(_parse_secret_input),
    PlainSerializer(lambda v: v.model_dump() if isinstance(v, SecretRef) else v),
]


def is_secret_ref_shape(value: Any) -> bool:
    """A dumped SecretRef (``{source, provider?, id}``) — used when masking ``config show``."""
    return isinstance(value, dict) and "source" in value and "id" in value and set(value) <= {"source", "provider", "id"}


def secret_value(value: SecretInput | None, key: str, env: Mapping[str, str] | None = None) -> str | None:
    """The plain value of a secret key: a string as is, an ``env`` reference from the
    environment. Raises :class:`SecretUnavailable` naming ``key`` when the reference cannot
    be resolved (variable unset or empty, or a ``file``/``exec`` source)."""
    if value is None or isinstance(value, str):
        return value
    if value.source != "env":
        raise SecretUnavailable(
            f"{key}: SecretRef {value.describe()} uses source {value.source!r}, which openclaw-tui does not "
            "resolve; use {source: \"env\", id: \"VAR\"} or a plain string for this key"
        )
    found = (os.environ if env is None else env).get(value.id)
    if not found:
        raise SecretUnavailable(
            f"{key}: SecretRef {value.describe()} names environment variable {value.id}, which is "
            f"{'empty' if found == '' else 'not set'}; export {value.id} or change the key"
        )
    register_secret(found)  # redacted from every later output, like a key written in the config
    return found


def secret_headers(headers: Mapping[str, SecretInput], key: str) -> dict[str, str]:
    """Headers with every SecretRef value resolved (see :func:`secret_value`)."""
    return {name: secret_value(v, f"{key}.{name}") or "" for name, v in headers.items()}
