"""The options every build shares, declared once: which columns hold the text, the second text
and the label, how input files are read, and where and in what format the build is written.

The builders (``build_maze_benchmark``, ``build_mps_benchmark``, ``build_suite_benchmark``) take
one :class:`InputOptions`; a spec's dataset entry makes one for its reading part; the CLI turns
its fields into the shared options of every ``shortcutlab build`` sub-command, with the help
text each field carries in its metadata (:func:`~shortcutlab.fields.option_field`).

Examples:
    >>> options = InputOptions(text_col="review", out="bench")
    >>> options.reading()
    {'text_col': 'review', 'label_col': 'label', 'text_pair_col': None, 'encoding': 'utf-8', 'on_empty': 'drop'}
    >>> options.out
    PosixPath('bench')
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self, TypeVar

from shortcutlab.data.column_names import LABEL, TEXT
from shortcutlab.errors import ConfigError
from shortcutlab.fields import option_field

if TYPE_CHECKING:  # pragma: no cover
    from shortcutlab.data.loading import LoadedTable

#: The fields that say how a table is read (the keywords of :func:`load_table` they set).
READING_FIELDS = ("text_col", "label_col", "text_pair_col", "encoding", "on_empty")


Options = TypeVar("Options", bound="ReadingOptions")


@dataclass(frozen=True)
class ReadingOptions:
    """How a table is read: which columns hold the text, the second text and the label, the
    files' encoding, and what happens to rows with an empty text or label. The audit takes
    these alone; a build adds where its output goes (:class:`InputOptions`)."""

    text_col: str = option_field(TEXT, help="Column holding the text.", metavar="COLUMN")
    label_col: str = option_field(LABEL, help="Column holding the label.", metavar="COLUMN")
    text_pair_col: str | None = option_field(
        None, help="Optional second text column (paired inputs).", metavar="COLUMN"
    )
    encoding: str = option_field("utf-8", help="Encoding of text input files.", metavar="ENCODING")
    on_empty: str = option_field(
        "drop",
        help="Rows with an empty text or label: drop (counted) or error.",
        metavar="[drop|error]",
    )

    def reading(self) -> dict[str, Any]:
        """The keywords of :func:`load_table` these options set."""
        return {name: getattr(self, name) for name in READING_FIELDS}

    def read(self, source: Any, *, role: str, stream_text: bool = False) -> LoadedTable:
        """``source`` as a table read with these options (a :class:`LoadedTable` is used as it is)."""
        # Imported here: declaring the options (a command's --help) needs no numpy or pyarrow.
        from shortcutlab.data.loading import LoadedTable, load_table

        if isinstance(source, LoadedTable):
            return source
        return load_table(source, role=role, stream_text=stream_text, **self.reading())

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Self:
        """The reading options a build's manifest records in its ``arguments``."""
        return cls(**{name: record.get(name) for name in READING_FIELDS})


@dataclass(frozen=True)
class InputOptions(ReadingOptions):
    """How a build reads its tables and where it writes them (``out=None``: kept in memory)."""

    fmt: str = option_field(
        "csv", "--file-format", help="csv, jsonl or parquet.", metavar="[csv|jsonl|parquet]"
    )
    out: Path | None = option_field(
        None, help="Output folder (must not exist or be empty, unless --overwrite)."
    )
    overwrite: bool = option_field(False, help="Replace a non-empty output folder.")

    def __post_init__(self) -> None:
        if self.out is not None and not isinstance(self.out, Path):
            object.__setattr__(self, "out", Path(self.out))  # a str is welcome too


def reading_options(
    function: str, inputs: Options | None, kind: type[Options], **given: Any
) -> Options:
    """The options ``function`` reads its tables with: ``inputs``, or its reading keywords
    ``given`` (``text_col=...``; None: not given) made into ``kind``. Every public function that
    takes data offers both spellings; giving both is refused, since neither would silently win.

    Examples:
        >>> reading_options("f", None, InputOptions, text_col="review", label_col=None).text_col
        'review'
        >>> reading_options("f", InputOptions(text_col="a"), InputOptions, text_col="b")
        Traceback (most recent call last):
        shortcutlab.errors.ConfigError: f takes text_col='b' or inputs=InputOptions(...), not both. Move text_col into inputs, or drop inputs.
    """
    keywords = {name: value for name, value in given.items() if value is not None}
    if inputs is None:
        return kind(**keywords)
    if keywords:
        names = ", ".join(f"{name}={value!r}" for name, value in keywords.items())
        raise ConfigError(
            f"{function} takes {names} or inputs={kind.__name__}(...), not both. "
            f"Move {', '.join(keywords)} into inputs, or drop inputs."
        )
    if not isinstance(inputs, kind):
        raise ConfigError(
            f"The 'inputs' parameter of {function} must be a {kind.__name__}. "
            f"Got {type(inputs).__name__} instead."
        )
    return inputs


__all__ = ["READING_FIELDS", "InputOptions", "ReadingOptions", "reading_options"]
