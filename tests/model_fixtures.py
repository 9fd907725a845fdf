"""Session fixtures for the local-model tests (imported by conftest.py).

- `tiny_model`: the tiny Gemma base model, loaded once per session (real llama.cpp).
- `chat_model_path` / `chat_model`: the same weights with a chat template added to the
  GGUF metadata, so the instruct-model code paths (chat template, JSON extraction) run on
  real llama.cpp without downloading a larger model. Answer quality is not the point of
  those tests; robustness and validation are.
- `write_gguf`: writes small synthetic GGUF files (header, metadata, tensor infos).
"""

from __future__ import annotations

import hashlib
import os
import struct
from pathlib import Path
from typing import Any

import pytest

GEMMA_STYLE_TEMPLATE = (
    "{{ bos_token }}{% for message in messages %}"
    "{% if message['role'] == 'assistant' %}{% set role = 'model' %}{% else %}{% set role = 'user' %}{% endif %}"
    "<start_of_turn>{{ role }}\n{{ message['content'] | trim }}<end_of_turn>\n"
    "{% endfor %}{% if add_generation_prompt %}<start_of_turn>model\n{% endif %}"
)

_STRING, _ARRAY, _UINT32, _UINT64 = 8, 9, 4, 10


def _gguf_string(value: str) -> bytes:
    raw = value.encode("utf-8")
    return struct.pack("<Q", len(raw)) + raw


def _gguf_value(value: Any) -> bytes:
    if isinstance(value, str):
        return struct.pack("<I", _STRING) + _gguf_string(value)
    if isinstance(value, bool):
        return struct.pack("<I?", 7, value)
    if isinstance(value, int):
        return struct.pack("<IQ", _UINT64, value) if value > 0xFFFFFFFF else struct.pack("<II", _UINT32, value)
    if isinstance(value, list):
        body = b"".join(_gguf_string(v) for v in value)
        return struct.pack("<IIQ", _ARRAY, _STRING, len(value)) + body
    raise TypeError(type(value))


def write_gguf(path: Path, metadata: dict[str, Any], tensors: list[tuple[str, list[int]]] = ()) -> Path:
    """A GGUF v3 file with this metadata and these tensor shapes (no weight data)."""
    out = [b"GGUF", struct.pack("<IQQ", 3, len(tensors), len(metadata))]
    for key, value in metadata.items():
        out.append(_gguf_string(key) + _gguf_value(value))
    for name, dims in tensors:
        out.append(_gguf_string(name) + struct.pack("<I", len(dims)) + b"".join(struct.pack("<Q", d) for d in dims))
        out.append(struct.pack("<IQ", 0, 0))
    path.write_bytes(b"".join(out))
    return path


def add_chat_template(source: Path, target: Path, template: str) -> Path:
    """Copy a GGUF model, adding `tokenizer.chat_template` to its metadata.

    The tensor data must stay aligned (general.alignment, default 32) relative to the
    start of the data section, whose position moves when the header grows: the new
    header is padded to the alignment and the data copied unchanged."""
    from models.gguf_info import _Reader

    with open(source, "rb") as f:
        r = _Reader(f)
        assert r.exact(4) == b"GGUF"
        version = r.u32()
        n_tensors, n_kv = r.u64(), r.u64()
        kv_start = f.tell()
        alignment = 32
        for _ in range(n_kv):
            key = r.string()
            vtype = r.u32()
            value = r.value(vtype)
            if key == "general.alignment":
                alignment = int(value)
        kv_end = f.tell()
        for _ in range(n_tensors):
            r.skip_string()
            n_dims = r.u32()
            f.seek(8 * n_dims + 12, 1)
        infos_end = f.tell()
        data_start = infos_end + (-infos_end % alignment)
        f.seek(kv_start)
        kvs = f.read(kv_end - kv_start)
        infos = f.read(infos_end - kv_end)
        header = b"GGUF" + struct.pack("<IQQ", version, n_tensors, n_kv + 1) + kvs
        header += _gguf_string("tokenizer.chat_template") + _gguf_value(template) + infos
        header += b"\0" * (-len(header) % alignment)
        tmp = target.with_name(f"{target.name}.{os.getpid()}.partial")
        with open(tmp, "wb") as out:
            out.write(header)
            f.seek(data_start)
            while block := f.read(1 << 22):
                out.write(block)
    tmp.replace(target)
    return target


@pytest.fixture(scope="session")
def tiny_model(tiny_model_path):
    from models.runtime import LocalModel

    model = LocalModel(tiny_model_path, n_ctx=2048)
    model.load()
    yield model
    model.close()


@pytest.fixture(scope="session")
def chat_model_path(tiny_model_path) -> Path:
    target = tiny_model_path.with_name("gemma-3-270m-with-chat-template.gguf")
    stamp = target.with_name(target.name + ".source")
    source_stat = tiny_model_path.stat()
    expected = f"{source_stat.st_size} {source_stat.st_mtime_ns} {hashlib.sha256(GEMMA_STYLE_TEMPLATE.encode()).hexdigest()[:12]}"
    if not (target.exists() and stamp.exists() and stamp.read_text() == expected):
        add_chat_template(tiny_model_path, target, GEMMA_STYLE_TEMPLATE)
        stamp.write_text(expected)
    return target


@pytest.fixture(scope="session")
def chat_model(chat_model_path):
    from models.runtime import LocalModel

    model = LocalModel(chat_model_path, n_ctx=2048)
    model.load()
    yield model
    model.close()
