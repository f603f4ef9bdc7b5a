"""Arrow arrays to numpy and back through their buffers, without pyarrow's pandas shim.

pyarrow imports pandas the first time it converts Python or numpy data (``pa.array``) or turns an
array into numpy (``to_numpy``), to check for pandas types; numbers and booleans convert through
their buffers here instead, without that detour and without copies.

Examples:
    >>> numpy_of(int_array(np.array([3, 1, 2]))).tolist()
    [3, 1, 2]
    >>> string_array(["ab", "café", ""]).to_pylist()
    ['ab', 'café', '']
    >>> numpy_of(bool_array(np.array([True, False, True]))).tolist()
    [True, False, True]
    >>> filled(string_array(["a"]).take(int_array(np.array([0]))), text_scalar("")).to_pylist()
    ['a']
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyarrow as pa

from shortcutlab.errors import warn

_NUMPY_TYPES = {
    pa.int8(): np.int8,
    pa.int16(): np.int16,
    pa.int32(): np.int32,
    pa.int64(): np.int64,
    pa.uint8(): np.uint8,
    pa.uint16(): np.uint16,
    pa.uint32(): np.uint32,
    pa.uint64(): np.uint64,
    pa.float32(): np.float32,
    pa.float64(): np.float64,
}


def numpy_of(values: pa.Array | pa.ChunkedArray) -> np.ndarray:
    """A numeric or boolean column without nulls as a numpy array (other columns: pyarrow's way)."""
    if isinstance(values, pa.ChunkedArray):
        if values.num_chunks == 1:
            return numpy_of(values.chunk(0))
        parts = [numpy_of(chunk) for chunk in values.chunks]
        return np.concatenate(parts) if parts else np.zeros(0, _numpy_type(values.type))
    if values.null_count or not (pa.types.is_boolean(values.type) or values.type in _NUMPY_TYPES):
        return values.to_numpy(zero_copy_only=False)
    data = values.buffers()[1]
    if pa.types.is_boolean(values.type):
        if data is None:
            return np.zeros(len(values), dtype=bool)
        bits = np.unpackbits(np.frombuffer(data, dtype=np.uint8), bitorder="little")
        return bits[values.offset : values.offset + len(values)].astype(bool)
    dtype = np.dtype(_NUMPY_TYPES[values.type])
    if data is None:
        return np.zeros(0, dtype)
    return np.frombuffer(
        data, dtype=dtype, count=len(values), offset=values.offset * dtype.itemsize
    )


def _numpy_type(kind: pa.DataType) -> Any:
    return bool if pa.types.is_boolean(kind) else _NUMPY_TYPES.get(kind, object)


def int_array(values: np.ndarray) -> pa.Array:
    """A numpy integer array as an Arrow array of the same width (int64 for Python ints)."""
    values = np.ascontiguousarray(values)
    kind = pa.from_numpy_dtype(values.dtype)
    return pa.Array.from_buffers(kind, len(values), [None, pa.py_buffer(values)])


def bool_array(values: np.ndarray) -> pa.Array:
    packed = np.packbits(np.asarray(values, dtype=bool), bitorder="little")
    return pa.Array.from_buffers(pa.bool_(), len(values), [None, pa.py_buffer(packed)])


class TextColumn(Sequence[str]):
    """An Arrow string array seen as a sequence of Python strings, made one at a time as they
    are indexed, with some rows' texts replaced (``changes``): for code that scans whole columns
    with Arrow (:func:`string_array` gives the array back) and edits a few rows by hand."""

    def __init__(self, array: pa.Array, changes: dict[int, str] | None = None) -> None:
        self.array = array
        self.changes = changes or {}

    def __len__(self) -> int:
        return len(self.array)

    def __getitem__(self, row: Any) -> Any:
        if isinstance(row, slice):
            return [self[i] for i in range(*row.indices(len(self)))]
        if row in self.changes:
            return self.changes[row]
        return self.array[row].as_py()

    def patched(self, changes: dict[int, str]) -> TextColumn:
        """The same column with ``changes`` on top of this one's."""
        return TextColumn(self.array, {**self.changes, **changes})

    def to_array(self) -> pa.Array:
        """The column with its changes, as an Arrow array."""
        if not self.changes:
            return self.array
        import pyarrow.compute as pc

        rows = sorted(self.changes)
        mask = np.zeros(len(self.array), bool)
        mask[rows] = True
        replacements = pa.array([self.changes[r] for r in rows], self.array.type)
        return pc.replace_with_mask(self.array, bool_array(mask), replacements)


def string_array(texts: Sequence[str], *, large: bool = False) -> pa.Array:
    """Python strings as an Arrow string array (int64 offsets if ``large``).

    ``pa.array`` imports pandas on first use (half a second of a build's start-up), so until
    something else has imported it, Arrow's string builder converts instead: no pandas, and about
    half ``pa.array``'s speed, which is still C speed. Values other than strings and None (a
    number) go through ``pa.array``.
    """
    if isinstance(texts, TextColumn):
        array = texts.to_array()
        # A slice of a longer array gets buffers of its own: Arrow's string kernels do not all
        # keep a slice's value offsets and its data buffer in step.
        array = array if _starts_its_buffers(array) else pa.concat_arrays([array])
        return array.cast(pa.large_string() if large else pa.string())
    if "pandas" not in sys.modules:
        builder = pa.lib.StringBuilder()
        try:
            builder.append_values(texts)
        except TypeError:
            pass
        else:
            array = builder.finish()
            return array.cast(pa.large_string()) if large else array
    return pa.array(texts, pa.large_string() if large else pa.string())


def _starts_its_buffers(array: pa.Array) -> bool:
    """Whether a string array's first value starts its data buffer (not a slice of another)."""
    if array.offset:
        return False
    offsets = array.buffers()[1]
    kind = np.int64 if pa.types.is_large_string(array.type) else np.int32
    return offsets is None or not len(array) or int(np.frombuffer(offsets, kind, count=1)[0]) == 0


def text_scalar(value: str) -> pa.Scalar:
    """A string scalar for compute functions (a Python literal there goes through the shim)."""
    return string_array([value])[0]


def bool_scalar(value: bool) -> pa.Scalar:
    return bool_array(np.array([value]))[0]


def filled(values: pa.Array | pa.ChunkedArray, value: pa.Scalar) -> pa.Array | pa.ChunkedArray:
    """``values`` with nulls replaced by ``value`` (``fill_null`` would convert it via the shim)."""
    import pyarrow.compute as pc

    return pc.coalesce(values, value) if values.null_count else values


# Python's str.isspace() characters (what ``not text.strip()`` tests) as an RE2 class.
BLANK_RE2 = "^[" + "".join(f"\\x{{{c:x}}}" for c in range(0x3001) if chr(c).isspace()) + "]*$"


#: Up to this many texts are tested one by one in Python rather than by an RE2 kernel.
_FEW_TEXTS = 2000
#: UTF-8 first bytes of a text that is surely not blank: an ASCII character that is no space.
_NOT_SPACE_FIRST = np.asarray([b < 0x80 and not chr(b).isspace() for b in range(256)])


def empty_values(values: pa.Array | pa.ChunkedArray) -> np.ndarray:
    """Per value: missing (null, NaN) or, for text, nothing but white space."""
    import pyarrow.compute as pc

    missing = numpy_of(values.is_null())
    if pa.types.is_floating(values.type):
        missing |= numpy_of(filled(pc.is_nan(values), bool_scalar(True)))
    if pa.types.is_string(values.type) or pa.types.is_large_string(values.type):
        chunks = values.chunks if isinstance(values, pa.ChunkedArray) else [values]
        if chunks:
            missing |= np.concatenate([_blank_texts(chunk) for chunk in chunks])
    return missing


def _blank_texts(texts: pa.Array) -> np.ndarray:
    """Per text, whether it is nothing but white space (:data:`BLANK_RE2`; null: any answer).

    A text starting with an ASCII character that is no space is not blank: that is told from
    its first byte, and the RE2 match runs on the other texts only (usually none)."""
    import pyarrow.compute as pc

    offsets = value_offsets(texts)
    data = texts.buffers()[2]
    blank = offsets[1:] == offsets[:-1]
    unsure = ~blank
    if data is not None and unsure.any():
        first = np.frombuffer(data, np.uint8)[offsets[:-1][unsure]]
        unsure[unsure] = ~_NOT_SPACE_FIRST[first]
    rows = np.flatnonzero(unsure)
    if len(rows) > _FEW_TEXTS:
        matched = pc.match_substring_regex(texts.take(int_array(rows)), BLANK_RE2)
        blank[rows] = numpy_of(filled(matched, bool_scalar(False)))
    elif len(rows):  # Python's own test: quicker than compiling the pattern
        some = texts.take(int_array(rows)).to_pylist()
        blank[rows] = [text is not None and not text.strip() for text in some]
    return blank


def value_offsets(texts: pa.Array) -> np.ndarray:
    """A string array's ``len + 1`` value offsets into its data buffer, as int64."""
    kind = np.int64 if pa.types.is_large_string(texts.type) else np.int32
    buffer = texts.buffers()[1]
    if buffer is None:
        return np.zeros(len(texts) + 1, np.int64)
    every = np.frombuffer(buffer, dtype=kind)
    return every[texts.offset : texts.offset + len(texts) + 1].astype(np.int64)


def without_nul(
    values: pa.Array | pa.ChunkedArray,
) -> tuple[pa.Array | pa.ChunkedArray, np.ndarray]:
    """Text with each NUL character as a space, and per value whether it held one.

    A NUL is no character a person typed (a damaged export, a binary field), and the text scans
    join rows with it as their separator, so it cannot stay; the loaders count what they replace.
    """
    import pyarrow.compute as pc

    if not _any_nul(values):  # the usual case, told from the bytes at memchr speed
        return values, np.zeros(len(values), dtype=bool)
    held = numpy_of(filled(pc.match_substring(values, "\x00"), bool_scalar(False)))
    if held.any():
        values = pc.replace_substring(values, "\x00", " ")
    return values, held


def _any_nul(values: pa.Array | pa.ChunkedArray) -> bool:
    """Whether any text of a string column holds a NUL byte (True where unsure: other types)."""
    chunks = values.chunks if isinstance(values, pa.ChunkedArray) else [values]
    for chunk in chunks:
        if not pa.types.is_string(chunk.type):
            return True
        _, offsets, data = chunk.buffers()
        if data is None or not len(chunk):
            continue
        first, last = np.frombuffer(offsets, np.int32)[[chunk.offset, chunk.offset + len(chunk)]]
        if not np.frombuffer(data, np.uint8, int(last - first), int(first)).all():
            return True
    return False


def scalars_array(values: Sequence[Any]) -> pa.Array:
    """A short list of labels (ints, floats or strings) as an Arrow array."""
    items = list(values)
    if items and all(isinstance(v, int | np.integer) and not isinstance(v, bool) for v in items):
        return int_array(np.asarray(items, dtype=np.int64))
    numbers = (int, float, np.integer, np.floating)
    if items and all(isinstance(v, numbers) and not isinstance(v, bool) for v in items):
        return float_array(np.asarray(items, dtype=np.float64))
    return string_array([str(v) for v in items])


def float_array(values: np.ndarray) -> pa.Array:
    values = np.ascontiguousarray(values, dtype=np.float64)
    return pa.Array.from_buffers(pa.float64(), len(values), [None, pa.py_buffer(values)])


def counted_nul(with_nul: np.ndarray, name: str) -> int:
    """How many texts held NUL bytes (read as spaces), with a warning where some did."""
    count = int(with_nul.sum())
    if count:
        warn(
            f"{name} has {count} text{'s' if count > 1 else ''} holding NUL bytes; each NUL was "
            f"read as a space (counted as texts_with_nul where the output records its inputs)."
        )
    return count
