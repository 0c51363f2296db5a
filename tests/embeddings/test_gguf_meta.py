"""The GGUF header reader behind the task prefixes: real headers written by the ``gguf``
package, and hostile bytes that must give ``{}`` (no prefixes), never an exception."""

from __future__ import annotations

import struct

import gguf
from hypothesis import given, settings
from hypothesis import strategies as st

from openclaw_tui.memory.embeddings.gguf_meta import NO_PREFIXES, TaskPrefixes, header_names, task_prefixes


def _write(path, arch: str, name: str | None = None) -> None:
    w = gguf.GGUFWriter(str(path), arch)
    if name is not None:
        w.add_name(name)
    w.add_uint32("x.count", 7)
    w.add_array("x.list", [1, 2, 3])
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.close()


def test_names_and_prefixes_by_family(tmp_path):
    cases = {
        ("nomic-bert", None): TaskPrefixes("search_query: ", "search_document: "),
        ("bert", "nomic-embed-text-v1"): TaskPrefixes("search_query: ", "search_document: "),
        ("bert", "multilingual-e5-small"): TaskPrefixes("query: ", "passage: "),
        ("bert", "all-MiniLM-L6-v2"): NO_PREFIXES,
        ("qwen2", "Qwen2.5 Coder 1.5B Instruct"): NO_PREFIXES,
    }
    for i, ((arch, name), want) in enumerate(cases.items()):
        p = tmp_path / f"m{i}.gguf"
        _write(p, arch, name)
        assert header_names(p)["general.architecture"] == arch
        assert task_prefixes(p) == want, (arch, name)


def test_not_a_gguf_or_missing_gives_no_names(tmp_path):
    assert header_names(tmp_path / "missing.gguf") == {}
    (tmp_path / "text.gguf").write_text("hello")
    assert header_names(tmp_path / "text.gguf") == {} and task_prefixes(tmp_path / "text.gguf") == NO_PREFIXES


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=400))
def test_hostile_header_bytes_never_raise(tmp_path_factory, body):
    p = tmp_path_factory.mktemp("h") / "x.gguf"
    p.write_bytes(b"GGUF" + struct.pack("<IQQ", 3, 0, 5) + body)
    assert isinstance(header_names(p), dict)
    assert isinstance(task_prefixes(p), TaskPrefixes)


def test_a_huge_declared_string_is_refused_not_read(tmp_path):
    p = tmp_path / "big.gguf"
    p.write_bytes(b"GGUF" + struct.pack("<IQQ", 3, 0, 1) + struct.pack("<Q", 1 << 40) + b"general.name")
    assert header_names(p) == {}
