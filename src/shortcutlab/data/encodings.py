"""Text encodings of input files: decoding with the byte offset of a bad byte, and the header
check that names a UTF-16 file or an invalid header byte before Arrow reads the file."""

from __future__ import annotations

import codecs
from pathlib import Path

from shortcutlab.errors import ConfigError, EncodingError, knob


def decode_bytes(raw: bytes, *, encoding: str, path: Path) -> str:
    """Decode ``raw``; invalid bytes raise an EncodingError with the byte offset and line."""
    try:
        return raw.decode(codec_name(encoding))
    except LookupError as exc:
        raise ConfigError(
            f"The 'encoding' parameter names an unknown encoding {encoding!r}. "
            f"Use a Python codec name such as utf-8, cp1252 or latin-1."
        ) from exc
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise EncodingError(
            f"'{path}' is not valid {encoding}: byte 0x{raw[exc.start]:02x} at offset {exc.start} "
            f"(line {line}). Pass the file's real encoding, e.g. {knob('encoding', 'cp1252')}."
        ) from exc
    except UnicodeError as exc:  # a codec's own refusal, e.g. UTF-16 without a byte-order mark
        raise EncodingError(
            f"'{path}' is not valid {encoding}: {exc}. Pass the file's real encoding, e.g. "
            f"{knob('encoding', 'utf-16-le')}."
        ) from exc


# Byte-order marks of the wide Unicode encodings, UTF-32's first: its LE mark begins with UTF-16's.
WIDE_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def check_first_line(head: bytes, *, encoding: str, path: Path) -> None:
    """Refuse a text file whose first line (the header) is not ``encoding``: a UTF-16 file read
    as UTF-8 would otherwise give column names full of NULs, and an invalid byte in the header
    would surface later as a bare UnicodeDecodeError. ``head`` is the file's first bytes."""
    codec = codec_name(encoding)
    try:
        canonical = codecs.lookup(codec).name
    except LookupError:
        return  # an unknown encoding is refused, with its own message, where the file is decoded
    if not canonical.startswith(("utf-16", "utf-32")):
        wide = next((name for bom, name in WIDE_BOMS if head.startswith(bom)), None)
        if wide is None and b"\x00" in head.split(b"\n", 1)[0]:
            wide = "utf-16"  # no byte-order mark, but every other byte of ASCII text is NUL
        if wide is not None:
            raise EncodingError(
                f"'{path}' looks like {wide.upper()} text, not {encoding} (its first line holds "
                f"NUL bytes or a {wide.upper()} byte-order mark). Pass {knob('encoding', wide)}, or save "
                "it as UTF-8."
            )
    first = head.split(b"\n", 1)[0]
    try:  # incremental: a character cut at the end of ``head`` is not an error
        codecs.getincrementaldecoder(codec)().decode(first, final=len(first) < len(head))
    except UnicodeError as exc:  # also a codec's own refusal (UTF-16 without a byte-order mark)
        problem = (
            f"byte 0x{exc.object[exc.start]:02x} at offset {exc.start} (line 1)"
            if isinstance(exc, UnicodeDecodeError)
            else str(exc)
        )
        raise EncodingError(
            f"'{path}' is not valid {encoding} in its first line (the header): {problem}. Pass "
            f"the file's real encoding, e.g. {knob('encoding', 'cp1252')}."
        ) from exc


def codec_name(encoding: str) -> str:
    return "utf-8-sig" if encoding.lower().replace("_", "-") in ("utf-8", "utf8") else encoding
