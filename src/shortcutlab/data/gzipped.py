"""Gzipped input files, decompressed in blocks up to a bound.

A gzipped table is held in memory whole once decompressed (its readers take bytes), and a few
megabytes of gzip may expand to gigabytes, so past :data:`MAX_GUNZIPPED_BYTES` it is refused in one
line; a plain CSV or TSV file has no such bound (Arrow reads it in blocks).
"""

from __future__ import annotations

import gzip
import io
import zlib
from pathlib import Path
from typing import BinaryIO

from shortcutlab.errors import InputFileError

#: The most bytes a gzipped input may hold once decompressed (docs/reference/bad-input.md).
MAX_GUNZIPPED_BYTES = 1 << 30


def gunzipped(path: Path) -> bytes:
    """A gzipped file's content, decompressed block by block and refused once it passes
    :data:`MAX_GUNZIPPED_BYTES`; a file that is not gzip, or cut short, is refused too."""
    content = io.BytesIO()
    try:
        with open(path, "rb") as handle:
            # The trailer's size (mod 2**32, of the last member) is at most the whole size, or
            # noise in a truncated file: where it says too big, count first, holding nothing.
            size = handle.seek(0, io.SEEK_END)
            handle.seek(max(size - 4, 0))
            if size >= 18 and int.from_bytes(handle.read(4), "little") > MAX_GUNZIPPED_BYTES:
                _decompress(handle, None, path)
            _decompress(handle, content, path)
    except (EOFError, zlib.error, OSError) as exc:
        if isinstance(exc, OSError) and exc.errno is not None:
            raise  # the machine's refusal (no permission...): it names the file itself
        raise InputFileError(f"'{path}' is not a valid gzip file ({exc}).") from exc
    return content.getvalue()  # the buffer's own bytes, not a copy


def _decompress(handle: BinaryIO, sink: io.BytesIO | None, path: Path) -> None:
    """Decompress ``handle`` from its start into ``sink`` (None: only count the bytes)."""
    handle.seek(0)
    size = 0
    with gzip.GzipFile(fileobj=handle, mode="rb") as stream:
        while block := stream.read(1 << 20):
            size += len(block)
            if size > MAX_GUNZIPPED_BYTES:
                limit = MAX_GUNZIPPED_BYTES / 2**30
                raise InputFileError(
                    f"'{path}' expands to more than {limit:g} GiB once decompressed, the most "
                    "shortcutlab reads from a gzipped file (it is held in memory whole). "
                    "Decompress it (gunzip) and pass the plain file."
                )
            if sink is not None:
                sink.write(block)
