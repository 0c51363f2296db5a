"""Fixtures for the security suite (shares the fault suite's helpers)."""

from __future__ import annotations

from tests.faults.conftest import _fast_retries, embed_server, server, workspace  # noqa: F401 - re-exported fixtures
