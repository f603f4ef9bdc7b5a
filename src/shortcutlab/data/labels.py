"""Ordered label sets.

The Shortcut Maze label schedule is by rank (p_i = i/(K-1)), so the order of labels is part of a
benchmark's definition: numeric labels sort numerically; other labels follow the order the user
gives, or their first appearance (with a warning, because that order is an accident of the file).
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from shortcutlab.data.columns import (
    bool_array,
    float_array,
    int_array,
    numpy_of,
    scalars_array,
    string_array,
)
from shortcutlab.errors import (
    ConfigError,
    DataError,
    ShortcutlabError,
    ShortcutlabWarning,
    ended,
    knob,
    listed,
    one_line,
)

if TYPE_CHECKING:
    import pandas as pd

Label = int | float | str

_INT = re.compile(r"^[+-]?\d+$")
_FLOAT = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")
_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1  # wider whole numbers stay text labels
_BOOLEANS = {"true": "True", "false": "False"}  # how a boolean label is written (Python's str)


def normalize_label_values(values: pd.Series) -> pd.Series:
    """Return labels as int, float or str: text that spells numbers becomes numbers.

    Examples:
        >>> import pandas as pd
        >>> normalize_label_values(pd.Series(["1", "10", "2"])).tolist()
        [1, 10, 2]
        >>> normalize_label_values(pd.Series(["0.4", "1.0"])).tolist()
        [0.4, 1.0]
        >>> normalize_label_values(pd.Series(["neg", "pos"])).tolist()
        ['neg', 'pos']
    """
    import pandas as pd

    if pd.api.types.is_bool_dtype(values):
        return values.astype(str).astype(object)
    if pd.api.types.is_integer_dtype(values):
        return values.astype("int64")
    if pd.api.types.is_float_dtype(values):
        return values.astype("float64")  # 0.4 ... 1.0 ratings stay floats even where integral
    array = normalize_label_array(pa.array(values.astype(str).tolist(), pa.string()))
    return pd.Series(array.to_pylist(), index=values.index, dtype=_pandas_dtype(array.type))


def normalize_label_array(values: pa.Array | pa.ChunkedArray) -> pa.Array:
    """The Arrow version of :func:`normalize_label_values` (int64, float64 or string labels).

    Text labels are normalised through their distinct values, so a million rows cost one pass.

    Examples:
        >>> normalize_label_array(pa.array([" 2", "10"])).to_pylist()
        [2, 10]
    """
    if isinstance(values, pa.ChunkedArray):
        values = values.combine_chunks()
    kind = values.type
    if pa.types.is_boolean(kind):
        return string_array([str(v) for v in values.to_pylist()])
    if pa.types.is_integer(kind):
        return pc.cast(values, pa.int64())
    if pa.types.is_floating(kind):
        return pc.cast(values, pa.float64())
    if not (pa.types.is_string(kind) or pa.types.is_large_string(kind)):
        values = pa.array([None if v is None else str(v) for v in values.to_pylist()], pa.string())  # fmt: skip
    encoded = pc.dictionary_encode(pc.utf8_trim_whitespace(values))
    names = [str(v) for v in encoded.dictionary.to_pylist()]
    wide = any(_INT.match(v) and not _INT64_MIN <= int(v) <= _INT64_MAX for v in names)
    if names and not wide and all(_INT.match(v) for v in names):
        dictionary = int_array(np.array([int(v) for v in names], dtype=np.int64))
    elif names and not wide and all(_FLOAT.match(v) for v in names):
        dictionary = float_array(np.array([float(v) for v in names], dtype=np.float64))
    elif names and all(v.lower() in _BOOLEANS for v in names):
        # true/TRUE/True: JSON, spreadsheets and pandas spell one boolean three ways.
        dictionary = string_array([_BOOLEANS[v.lower()] for v in names])
    else:
        return encoded.dictionary.take(encoded.indices)
    return dictionary.take(encoded.indices)


def is_nested(kind: pa.DataType) -> bool:
    """Whether an Arrow type holds several values per cell (a list, struct, map or union)."""
    return pa.types.is_nested(kind) or pa.types.is_union(kind)


def shown(value: Any, width: int = 24) -> str:
    """A data value as it may appear in a one-line message: as written (no quotes: labels are shown
    as the user sees them), control characters escaped, long values cut."""
    text = one_line(str(value))
    return text if len(text) <= width else text[: width - 1] + "…"


def agree_label_columns(columns: Mapping[str, pa.Array | pa.ChunkedArray]) -> dict[str, pa.Array]:
    """The label columns of several files (keyed by file name, the reference first) in one type.

    Each file's labels are read on their own (``normalize_label_array``), so one file may hold
    numbers where another holds text. Numbers compare by value: 1 and 1.0 are one label, because
    pandas and JSON writers turn a whole-number column into floats (a missing value, a
    conversion), and that is not the user changing the label. Where some file holds text, every
    label is compared as written: a number becomes the spelling a text file gives it ("1" or
    "1.0"), so int 1 in train and "1" in test are one label. Files whose labels then name values
    the reference file lacks disagree: a DataError names each file's label type and examples.

    Examples:
        >>> agreed = agree_label_columns({"train": pa.array([1, 2]), "test": pa.array([2.0, 1.0])})
        >>> agreed["test"].to_pylist()
        [2, 1]
        >>> agree_label_columns({"a": pa.array(["1", "x"]), "b": pa.array([1])})["b"].to_pylist()
        ['1']
    """
    arrays = {name: _combined(values) for name, values in columns.items()}
    typed = [values.type for values in arrays.values() if not pa.types.is_null(values.type)]
    if typed:  # a column with no label at all (kept empty rows) takes any type
        arrays = {
            name: pa.nulls(len(values), typed[0]) if pa.types.is_null(values.type) else values
            for name, values in arrays.items()
        }
    kinds = {name: _kind(values.type) for name, values in arrays.items()}
    if len(set(kinds.values())) <= 1:
        return arrays
    if "text" not in kinds.values():
        integral = all(
            _integral(values) for name, values in arrays.items() if kinds[name] == "decimal"
        )
        target = pa.int64() if integral else pa.float64()
        return {name: pc.cast(values, target) for name, values in arrays.items()}
    spellings: dict[float, str] = {}
    for name, values in arrays.items():
        if kinds[name] == "text":
            for text in pc.unique(values).to_pylist():
                if text is not None and _FLOAT.match(text):
                    spellings.setdefault(float(text), text)
    agreed = {
        name: values if kinds[name] == "text" else _spelled(values, spellings)
        for name, values in arrays.items()
    }
    reference, *others = agreed
    known = set(pc.unique(agreed[reference]).to_pylist())
    for name in others:
        unknown = [v for v in pc.unique(agreed[name]).to_pylist() if v not in known | {None}]
        if unknown:
            raise DataError(_disagreement(arrays, reference, name, unknown))
    return agreed


def _combined(values: pa.Array | pa.ChunkedArray) -> pa.Array:
    return values.combine_chunks() if isinstance(values, pa.ChunkedArray) else values


def _kind(kind: pa.DataType) -> str:
    if pa.types.is_integer(kind):
        return "whole-number"
    return "decimal" if pa.types.is_floating(kind) else "text"


def _integral(values: pa.Array) -> bool:
    numbers = numpy_of(values.drop_null())
    whole = np.all(np.isfinite(numbers)) and np.all(numbers == np.round(numbers))
    return bool(whole and np.all(np.abs(numbers) < 2.0**63))  # and within int64


def _spelled(values: pa.Array, spellings: Mapping[float, str]) -> pa.Array:
    """Numbers as text, spelled as a text file spells the same number where one does."""
    encoded = pc.dictionary_encode(values)
    texts = [spellings.get(float(v), _number_text(v)) for v in encoded.dictionary.to_pylist()]
    return string_array(texts).take(encoded.indices)


def _number_text(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _disagreement(
    arrays: Mapping[str, pa.Array], reference: str, name: str, unknown: Sequence[Any]
) -> str:
    arrays = {_inline(file): values for file, values in arrays.items()}
    reference, name = _inline(reference), _inline(name)

    def described(values: pa.Array) -> str:
        seen = pc.unique(values.drop_null()).to_pylist()
        kind = _kind(values.type)
        if kind == "text" and set(seen) <= set(_BOOLEANS.values()):
            kind = "true/false"
        return f"{kind} labels ({_examples(seen)})"

    types = ", ".join(f"{file} has {described(values)}" for file, values in arrays.items())
    return (
        f"The label types of the files differ and their labels do not match: {types}. Labels "
        f"are compared as written, so {_examples(unknown)} in {name} are not labels of "
        f"{reference}. Write the labels the same way in every file (e.g. map names to their "
        f"numbers) or check {ended(knob('label_col'))}"
    )


def _inline(name: str) -> str:
    """A name that may open a sentence ("The test table"), for the middle of one."""
    return "the" + name[3:] if name.startswith("The ") else name


def _examples(values: Sequence[Any]) -> str:
    return listed(values, limit=3, show=shown)


def _pandas_dtype(kind: pa.DataType) -> str:
    return {pa.int64(): "int64", pa.float64(): "float64"}.get(kind, "object")


def _coerce_like(given: Sequence[Any], sample: Label) -> list[Label]:
    """Convert user-given label names (strings from the command line) to the data's type."""
    out: list[Label] = normalize_label_array(string_array([str(v) for v in given])).to_pylist()
    if isinstance(sample, str):
        out = [str(v) for v in given]
    elif isinstance(sample, float):
        out = [float(v) for v in out] if all(isinstance(v, int | float) for v in out) else out
    return out


def check_case_distinct(
    labels: Iterable[Any], source: str, error: type[ShortcutlabError] = DataError
) -> None:
    """Refuse text labels that differ only in case ("Pos", "pos") with ``error``: an LLM's answer
    is read, and lm-eval's ``exact_match`` scores, ignoring case, so there they would be one label.

    Examples:
        >>> check_case_distinct(["Pos", "NEG", "pos"], "'train.csv'")
        Traceback (most recent call last):
        ...
        shortcutlab.errors.DataError: 'train.csv' has labels that differ only in case: Pos/pos. An LLM's answer is read, and lm-eval's exact_match scores, ignoring case, so they would be one label there. Write each label one way (e.g. all in lower case).
    """
    spellings: dict[str, list[str]] = {}
    for label in labels:
        if isinstance(label, str):
            spellings.setdefault(label.lower(), []).append(label)
    clashing = ["/".join(found) for found in spellings.values() if len(found) > 1]
    if clashing:
        raise error(
            f"{source} has labels that differ only in case: {listed(clashing)}. An LLM's answer "
            "is read, and lm-eval's exact_match scores, ignoring case, so they would be one label "
            "there. Write each label one way (e.g. all in lower case)."
        )


@dataclass(frozen=True)
class LabelSpace:
    """An ordered tuple of labels; rank ``i`` is a label's index in :attr:`values`.

    Examples:
        >>> space = LabelSpace((1, 2, 3))
        >>> space.ranks([3, 1]).tolist()
        [2, 0]
        >>> len(space)
        3
    """

    values: tuple[Label, ...]

    def __post_init__(self) -> None:
        if len(set(self.values)) != len(self.values):
            raise ConfigError(
                f"Labels must be unique. Got {listed(self.values, show=repr)} instead."
            )
        check_case_distinct(self.values, "The label set")

    def __len__(self) -> int:
        return len(self.values)

    def ranks(self, labels: Any, *, where: str = "data") -> np.ndarray:
        """Map label values (a sequence, a pandas Series or an Arrow array) to their ranks
        0..K-1; unknown values raise a DataError."""
        array = _as_arrow(labels)
        value_set = scalars_array(self.values)
        if len(array) and array.type != value_set.type:
            # Labels read from another file than the label set: compared as written.
            agreed = agree_label_columns({"the label set": value_set, where: array})
            value_set, array = agreed["the label set"], agreed[where]
        ranks = pc.index_in(array, value_set=value_set)
        if ranks.null_count:
            missing = numpy_of(pc.is_null(ranks))
            values = array.filter(bool_array(missing)).to_pylist()
            unknown = sorted({str(v) for v in values})
            raise DataError(
                f"{where} has labels {listed(unknown)} that are not in the label set "
                f"{listed(self.values)}."
            )
        return numpy_of(ranks).astype(np.int64)

    def to_json(self) -> list[Label]:
        return [v.item() if hasattr(v, "item") else v for v in self.values]

    @classmethod
    def infer(
        cls,
        labels: Iterable[Label],
        *,
        given: Sequence[Any] | None = None,
        source: str = "the training data",
    ) -> LabelSpace:
        """Derive the label order from the observed labels (in order of appearance).

        Numeric labels sort numerically; ``given`` fixes the order explicitly; otherwise
        non-numeric labels keep first-appearance order and a :class:`ShortcutlabWarning` says so.
        """
        if isinstance(labels, pa.Array | pa.ChunkedArray):
            seen = pc.unique(labels).to_pylist()  # in order of first appearance
        else:
            seen = list(dict.fromkeys(labels))
        if not seen:
            raise DataError(f"{source} has no labels.")
        check_case_distinct(seen, source)
        if given:
            order = _coerce_like(given, seen[0])
            if len(set(order)) != len(order):
                raise ConfigError(
                    f"The 'labels' parameter repeats a label: {listed(given, show=repr)}."
                )
            ordered = set(order)
            missing = [v for v in seen if v not in ordered]
            if missing:
                raise DataError(
                    f"{source} has labels {listed(missing)} that are missing from "
                    f"labels={listed(order)}. List every label in "
                    f"{knob('labels', section='data')}."
                )
            space = cls(tuple(order))
        elif all(isinstance(v, int | float | np.integer | np.floating) for v in seen):
            space = cls(tuple(sorted(seen)))
        else:
            warnings.warn(
                f"Labels of {source} are not numeric; using their order of first appearance "
                f"({listed(seen)}). The label schedule is by rank: give the order "
                f"with {knob('labels', section='data')}.",
                ShortcutlabWarning,
                stacklevel=2,
            )
            space = cls(tuple(seen))
        observed = set(seen)  # once: a set per label made 10,000 labels take 20 s
        present = [v for v in space.values if v in observed]
        if len(present) < 2:
            raise DataError(
                f"{source} has fewer than two labels ({listed(seen)}); "
                f"a classifier needs at least two. Check {ended(knob('label_col'))}"
            )
        return space


def _as_arrow(labels: Any) -> pa.Array:
    if isinstance(labels, pa.ChunkedArray):
        return labels.combine_chunks()
    if isinstance(labels, pa.Array):
        return labels
    if hasattr(labels, "to_numpy") and hasattr(labels, "dtype"):  # a pandas Series
        labels = labels.tolist()
    values = list(labels)
    try:
        array = pa.array(values)
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        return string_array([str(v) for v in values])
    # Booleans are text labels here ("True"/"False"), as normalize_label_values makes them.
    return string_array([str(v) for v in values]) if pa.types.is_boolean(array.type) else array
