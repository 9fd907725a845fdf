"""Read what a .gguf file says about itself, without loading the model.

A GGUF file starts with a small header (magic, version, counts), then a key/value
metadata section, then the tensor descriptions, then the weights. Everything we show
the user (name, size, quantization, context, chat template) is in the first two parts,
so reading them takes milliseconds even for a multi-gigabyte model. llama_cpp exposes
metadata only after a full load and the `gguf` package is not a dependency, hence this
small reader (format: github.com/ggml-org/ggml/blob/master/docs/gguf.md).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

GGUF_MAGIC = b"GGUF"

# Value types of the metadata section (enum gguf_metadata_value_type).
_UINT8, _INT8, _UINT16, _INT16, _UINT32, _INT32, _FLOAT32, _BOOL, _STRING, _ARRAY = range(10)
_UINT64, _INT64, _FLOAT64 = 10, 11, 12
_SCALARS: dict[int, struct.Struct] = {
    _UINT8: struct.Struct("<B"),
    _INT8: struct.Struct("<b"),
    _UINT16: struct.Struct("<H"),
    _INT16: struct.Struct("<h"),
    _UINT32: struct.Struct("<I"),
    _INT32: struct.Struct("<i"),
    _FLOAT32: struct.Struct("<f"),
    _BOOL: struct.Struct("<?"),
    _UINT64: struct.Struct("<Q"),
    _INT64: struct.Struct("<q"),
    _FLOAT64: struct.Struct("<d"),
}
_U32 = struct.Struct("<I")
_U64 = struct.Struct("<Q")

# Arrays longer than this (token lists, merges) are skipped, only their length is kept:
# nobody needs 262k vocabulary strings to describe a model.
MAX_ARRAY_ITEMS_KEPT = 64
# Guards against a corrupt or hostile file asking us to allocate gigabytes.
_MAX_STRING_BYTES = 16 * 1024 * 1024
_MAX_KV_COUNT = 1_000_000
_MAX_TENSORS = 1_000_000

# llama.cpp's `general.file_type` (enum llama_ftype): the quantization mix of the file.
# A test checks this table against llama_cpp's LLAMA_FTYPE_* constants.
FILE_TYPES: dict[int, str] = {
    0: "F32",
    1: "F16",
    2: "Q4_0",
    3: "Q4_1",
    7: "Q8_0",
    8: "Q5_0",
    9: "Q5_1",
    10: "Q2_K",
    11: "Q3_K_S",
    12: "Q3_K_M",
    13: "Q3_K_L",
    14: "Q4_K_S",
    15: "Q4_K_M",
    16: "Q5_K_S",
    17: "Q5_K_M",
    18: "Q6_K",
    19: "IQ2_XXS",
    20: "IQ2_XS",
    21: "Q2_K_S",
    22: "IQ3_XS",
    23: "IQ3_XXS",
    24: "IQ1_S",
    25: "IQ4_NL",
    26: "IQ3_S",
    27: "IQ3_M",
    28: "IQ2_S",
    29: "IQ2_M",
    30: "IQ4_XS",
    31: "IQ1_M",
    32: "BF16",
    36: "TQ1_0",
    37: "TQ2_0",
    38: "MXFP4_MOE",
    39: "NVFP4",
    40: "Q1_0",
    41: "Q2_0",
}


class GgufError(ValueError):
    """The file is not a readable GGUF model (wrong magic, truncated, corrupt)."""


@dataclass(frozen=True)
class ArraySummary:
    """A long metadata array: its element type and length, not its items."""

    item_type: int
    length: int


@dataclass(frozen=True)
class GgufInfo:
    path: Path
    version: int
    file_size: int
    architecture: str
    name: str
    parameter_count: int | None  # from metadata, else summed over the tensor shapes
    size_label: str  # e.g. "270M", "1.5B" (metadata or derived from parameter_count)
    file_type: int | None
    quantization: str  # e.g. "Q4_K_M"; "unknown" when the file does not say
    context_length: int | None
    chat_template: str | None
    licence: str
    tensor_count: int
    metadata: dict[str, Any] = field(repr=False, default_factory=dict)

    @property
    def has_chat_template(self) -> bool:
        return bool(self.chat_template)

    def summary(self) -> dict[str, Any]:
        """The facts shown to the user (CLI `veil models info`, settings dialog)."""
        return {
            "path": str(self.path),
            "name": self.name,
            "architecture": self.architecture,
            "parameters": self.parameter_count,
            "size_label": self.size_label,
            "quantization": self.quantization,
            "context_length": self.context_length,
            "chat_template": self.has_chat_template,
            "licence": self.licence,
            "file_size": self.file_size,
            "gguf_version": self.version,
        }


class _Reader:
    """Little-endian reads with bounds checks (a truncated file raises GgufError)."""

    def __init__(self, f: BinaryIO):
        self.f = f

    def exact(self, n: int) -> bytes:
        data = self.f.read(n)
        if len(data) != n:
            raise GgufError("file is truncated")
        return data

    def u32(self) -> int:
        return _U32.unpack(self.exact(4))[0]

    def u64(self) -> int:
        return _U64.unpack(self.exact(8))[0]

    def string(self) -> str:
        n = self.u64()
        if n > _MAX_STRING_BYTES:
            raise GgufError(f"implausible string length {n}")
        return self.exact(n).decode("utf-8", errors="replace")

    def skip_string(self) -> None:
        n = self.u64()
        if n > _MAX_STRING_BYTES:
            raise GgufError(f"implausible string length {n}")
        self.f.seek(n, 1)

    def value(self, vtype: int) -> Any:
        scalar = _SCALARS.get(vtype)
        if scalar is not None:
            return scalar.unpack(self.exact(scalar.size))[0]
        if vtype == _STRING:
            return self.string()
        if vtype == _ARRAY:
            item_type = self.u32()
            length = self.u64()
            if length <= MAX_ARRAY_ITEMS_KEPT:
                if item_type == _ARRAY:
                    raise GgufError("nested arrays are not supported")
                return [self.value(item_type) for _ in range(length)]
            self.skip_array(item_type, length)
            return ArraySummary(item_type, length)
        raise GgufError(f"unknown metadata value type {vtype}")

    def skip_array(self, item_type: int, length: int) -> None:
        scalar = _SCALARS.get(item_type)
        if scalar is not None:
            self.f.seek(scalar.size * length, 1)
        elif item_type == _STRING:
            for _ in range(length):
                self.skip_string()
        else:
            raise GgufError(f"cannot skip array of type {item_type}")


def read_gguf_info(path: str | Path) -> GgufInfo:
    """Metadata of a .gguf file. Raises GgufError for anything that is not a valid GGUF,
    FileNotFoundError when the file is missing."""
    path = Path(path)
    file_size = path.stat().st_size
    # A large buffer: the token list is read as many small strings.
    with open(path, "rb", buffering=1 << 20) as f:
        r = _Reader(f)
        if r.exact(4) != GGUF_MAGIC:
            raise GgufError(f"{path.name} is not a GGUF file (wrong magic bytes)")
        version = r.u32()
        if version not in (2, 3):
            raise GgufError(f"unsupported GGUF version {version}")
        tensor_count = r.u64()
        kv_count = r.u64()
        if kv_count > _MAX_KV_COUNT or tensor_count > _MAX_TENSORS:
            raise GgufError("implausible header counts (corrupt file?)")
        metadata: dict[str, Any] = {}
        for _ in range(kv_count):
            key = r.string()
            metadata[key] = r.value(r.u32())
        counted = _count_parameters(r, tensor_count)
    return _describe(path, version, file_size, tensor_count, metadata, counted)


def _count_parameters(r: _Reader, tensor_count: int) -> int | None:
    """Sum of the element counts of all tensors (the tensor infos follow the metadata)."""
    total = 0
    try:
        for _ in range(tensor_count):
            r.skip_string()  # tensor name
            n_dims = r.u32()
            if n_dims > 8:
                raise GgufError("implausible tensor rank")
            count = 1
            for _ in range(n_dims):
                count *= r.u64()
            r.exact(4 + 8)  # ggml type, data offset
            total += count
    except GgufError:
        return None
    return total or None


def _describe(
    path: Path,
    version: int,
    file_size: int,
    tensor_count: int,
    md: dict[str, Any],
    counted_parameters: int | None,
) -> GgufInfo:
    arch = str(md.get("general.architecture", "")) or "unknown"
    params = md.get("general.parameter_count")
    parameter_count = int(params) if isinstance(params, int) and params > 0 else counted_parameters
    size_label = str(md.get("general.size_label") or "") or _size_label(parameter_count)
    file_type = md.get("general.file_type")
    file_type = int(file_type) if isinstance(file_type, int) else None
    quantization = FILE_TYPES.get(file_type, f"type {file_type}") if file_type is not None else "unknown"
    ctx = md.get(f"{arch}.context_length")
    template = md.get("tokenizer.chat_template")
    name = str(md.get("general.name") or "") or path.stem
    return GgufInfo(
        path=path,
        version=version,
        file_size=file_size,
        architecture=arch,
        name=name,
        parameter_count=parameter_count,
        size_label=size_label,
        file_type=file_type,
        quantization=quantization,
        context_length=int(ctx) if isinstance(ctx, int) else None,
        chat_template=template if isinstance(template, str) and template.strip() else None,
        licence=str(md.get("general.license") or ""),
        tensor_count=tensor_count,
        metadata=md,
    )


def _size_label(count: int | None) -> str:
    if not count:
        return ""
    if count >= 1_000_000_000:
        return f"{count / 1e9:.1f}B".replace(".0B", "B")
    return f"{round(count / 1e6)}M"
