"""A benchmark made of split files someone else wrote: the Shortcut Maze release layout
(``train.csv``, ``dev.csv``, ``test.csv``, ``test_anti-shortcut.csv``) or any such files.

No build wrote them, so there is no ``manifest.json``: :class:`ExistingSplits` names the files
and the columns, and :meth:`ExistingSplits.load` gives the same :class:`Benchmark` a build gives,
with a manifest of kind :data:`EXISTING_SPLITS` that records each file's path and sha256. What
only a build knows (the shortcut type, its strength λ) is unknown unless the caller states it,
and an unknown value stays ``None`` (tables print ``—``), never a guess.

The test, anti-test and original-test files hold the same rows in the same order: their rows
are paired by position (or by a ``row_id`` column they share), and each pair must carry the
same label.

Examples:
    >>> import pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "train.csv").write_text("label,text\\n0,a b\\n1,honestly c d\\n")
    >>> _ = (folder / "test.csv").write_text("label,text\\n0,b\\n1,honestly d\\n")
    >>> _ = (folder / "test_anti-shortcut.csv").write_text("label,text\\n0,honestly b\\n1,d\\n")
    >>> bench = ExistingSplits.release(folder).load()
    >>> list(bench.splits), bench.labels.values, bench.strength
    (['train', 'test', 'anti_test'], (0, 1), None)
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from shortcutlab.data.column_names import LABEL, ROW_ID, TEXT
from shortcutlab.errors import ConfigError, DataError, InputFileError, knob
from shortcutlab.fields import option_field
from shortcutlab.params import quoted

# The readers (numpy, pyarrow) load inside the functions that read: declaring these options
# (``shortcutlab evaluate --help``) imports none of them.
if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

    from shortcutlab.data.benchmark import Benchmark
    from shortcutlab.data.labels import LabelSpace
    from shortcutlab.data.loading import LoadedTable
    from shortcutlab.data.options import ReadingOptions

EXISTING_SPLITS = "existing-splits"  # the manifest's kind: files evaluated as they are
# The Shortcut Maze release's file of each split (the paper's code names them so).
RELEASE_FILES = {
    "train": "train.csv",
    "validation": "dev.csv",
    "test": "test.csv",
    "anti_test": "test_anti-shortcut.csv",
}
PAIRED_SPLITS = ("test", "anti_test", "original_test")
# Field name -> split name, in the benchmark's split order.
_SPLIT_FIELDS = {
    "train": "train",
    "dev": "validation",
    "test": "test",
    "anti_test": "anti_test",
    "original_test": "original_test",
}


@dataclass(frozen=True)
class ExistingSplits:
    """Split files to evaluate as they are, and how to read them (also the options of
    ``shortcutlab evaluate --train ... --test ... --anti-test ...``)."""

    train: Path | None = option_field(None, help="Training split file (no build needed).")
    test: Path | None = option_field(None, help="Test split file (the cue as in training).")
    anti_test: Path | None = option_field(
        None, help="Anti-test split file: the test rows with the cue reversed."
    )
    original_test: Path | None = option_field(
        None, help="Optional test rows without any cue (Ori-Test)."
    )
    dev: Path | None = option_field(None, help="Optional validation split file.")
    text_col: str = option_field(
        TEXT, help="Column holding the text in the split files.", metavar="COLUMN"
    )
    label_col: str = option_field(
        LABEL, help="Column holding the label in the split files.", metavar="COLUMN"
    )
    text_pair_col: str | None = option_field(
        None,
        help="Optional second text column of the split files (paired inputs).",
        metavar="COLUMN",
    )
    encoding: str = option_field("utf-8", help="Encoding of the split files.", metavar="ENCODING")
    on_empty: str = option_field(
        "drop",
        help="Rows with an empty text or label: drop (counted; kept in the paired test files, "
        "whose rows pair by position) or error.",
        metavar="[drop|error]",
    )

    @classmethod
    def release(cls, folder: str | Path, **options: Any) -> ExistingSplits:
        """The files of a Shortcut Maze release folder (``dev.csv`` when it is there)."""
        folder = Path(folder)
        paths = {
            "train": folder / RELEASE_FILES["train"],
            "test": folder / RELEASE_FILES["test"],
            "anti_test": folder / RELEASE_FILES["anti_test"],
        }
        if (folder / RELEASE_FILES["validation"]).is_file():
            paths["dev"] = folder / RELEASE_FILES["validation"]
        return cls(**paths, **options)

    def given(self) -> bool:
        """Whether any split file is named."""
        return any(getattr(self, name) is not None for name in _SPLIT_FIELDS)

    def check(self) -> None:
        """Refuse a set of files that cannot make a benchmark: train, test and anti-test are needed."""
        missing = [name for name in ("train", "test", "anti_test") if getattr(self, name) is None]
        if missing:
            needed = [knob(name) for name in ("train", "test", "anti_test")]
            flags = ", ".join(map(knob, missing))
            raise ConfigError(
                f"Evaluating split files needs {', '.join(needed[:2])} and {needed[2]}; {flags} "
                f"{'is' if len(missing) == 1 else 'are'} missing. Name every file, or pass a "
                "folder written by 'shortcutlab build maze' instead."
            )

    def load(
        self, *, labels: Any = None, shortcut: str | None = None, strength: float | None = None
    ) -> Benchmark:
        """The files as a :class:`Benchmark` (``labels``: the label order, default the training
        file's labels, numbers sorted). ``shortcut`` and ``strength`` state what built the files
        when the caller knows it; they are recorded as given, not checked against the data."""
        from shortcutlab.data.benchmark import Benchmark
        from shortcutlab.data.labels import LabelSpace

        self.check()
        if strength is not None and (isinstance(strength, bool) or not 0 <= strength <= 1):
            raise ConfigError(
                f"The 'strength' parameter must be in [0, 1]. Got {quoted(strength)} instead."
            )
        tables = {
            split: self._read(path, split)
            for name, split in _SPLIT_FIELDS.items()
            if (path := getattr(self, name)) is not None
        }
        train = tables["train"]
        space = LabelSpace.infer(
            train.index.column(LABEL), given=labels, source=_named(train, "train")
        )
        frames = {split: table.frame for split, table in tables.items()}
        ranks = {
            split: space.ranks(frame[LABEL], where=_named(tables[split], split))
            for split, frame in frames.items()
        }
        _check_paired(frames, ranks, tables)
        return Benchmark(
            splits=frames, labels=space, manifest=self._manifest(tables, space, shortcut, strength)
        )

    def _read(self, source: Any, split: str) -> LoadedTable:
        """The split ``split`` from a path, a DataFrame, a ``datasets.Dataset`` or a loaded table."""
        from shortcutlab.data.loading import split_source_spec
        from shortcutlab.data.options import ReadingOptions

        if isinstance(source, str | Path):
            # A file, or a split of a Hugging Face dataset folder: PATH::SPLIT.
            path, hf_split = split_source_spec(source)
            if not (path.is_file() or (hf_split is not None and path.is_dir())):
                name = next(n for n, s in _SPLIT_FIELDS.items() if s == split)
                raise InputFileError(f"The {split} file '{source}' ({knob(name)}) does not exist.")
        # Paired rows stay, empty or not: dropping one would unpair the files.
        on_empty = "keep" if split in PAIRED_SPLITS and self.on_empty == "drop" else self.on_empty
        reading = ReadingOptions(
            text_col=self.text_col,
            label_col=self.label_col,
            text_pair_col=self.text_pair_col,
            encoding=self.encoding,
            on_empty=on_empty,
        )
        return reading.read(source, role=split)

    def _manifest(
        self,
        tables: dict[str, LoadedTable],
        labels: LabelSpace,
        shortcut: str | None,
        strength: float | None,
    ) -> dict[str, Any]:
        reading = {
            f.name: getattr(self, f.name) for f in fields(self) if f.name not in _SPLIT_FIELDS
        }
        stated = {"shortcut": shortcut, "strength": strength}
        return {
            "kind": EXISTING_SPLITS,
            # Only what the caller stated: an absent shortcut or λ is unknown, not a default.
            "arguments": {**{k: v for k, v in stated.items() if v is not None}, **reading},
            "seed": 0,
            "labels": labels.to_json(),
            "inputs": {split: table.source.to_json() for split, table in tables.items()},
            "splits": {split: {"rows": len(table)} for split, table in tables.items()},
        }


def load_splits(
    train: str | Path | Any,
    test: str | Path | Any,
    anti_test: str | Path | Any,
    *,
    original_test: str | Path | Any | None = None,
    dev: str | Path | Any | None = None,
    text_col: str | None = None,
    label_col: str | None = None,
    text_pair_col: str | None = None,
    encoding: str | None = None,
    on_empty: str | None = None,
    inputs: ReadingOptions | None = None,
    labels: Any = None,
    shortcut: str | None = None,
    strength: float | None = None,
) -> Benchmark:
    """Existing splits (for example the Shortcut Maze release's ``train.csv``, ``test.csv`` and
    ``test_anti-shortcut.csv``; each a path, a DataFrame or a ``datasets.Dataset``) as a
    :class:`Benchmark`, ready for ``evaluate_benchmark``. ``text_col``, ``label_col``,
    ``text_pair_col``, ``encoding`` and ``on_empty`` say how they are read, or ``inputs`` does
    (giving both is refused); the paired test splits keep their empty rows unless
    ``on_empty="error"``."""
    from shortcutlab.data.options import ReadingOptions, reading_options

    reading = reading_options(
        "load_splits",
        inputs,
        ReadingOptions,
        text_col=text_col,
        label_col=label_col,
        text_pair_col=text_pair_col,
        encoding=encoding,
        on_empty=on_empty,
    )
    sources = dict(
        train=train, test=test, anti_test=anti_test, original_test=original_test, dev=dev
    )
    files = ExistingSplits(
        **{name: Path(s) if isinstance(s, str) else s for name, s in sources.items()},
        **reading.reading(),
    )
    return files.load(labels=labels, shortcut=shortcut, strength=strength)


def _named(table: LoadedTable, split: str) -> str:
    """How a message names the table of ``split``: its file, or "the test table" for a frame."""
    return f"'{table.source.path}'" if table.source.path is not None else f"the {split} table"


def _check_paired(
    frames: dict[str, pd.DataFrame], ranks: dict[str, np.ndarray], tables: dict[str, LoadedTable]
) -> None:
    """Test, anti-test and original test must hold the same rows, each pair with one label."""
    import numpy as np

    test = frames["test"]
    for split in ("anti_test", "original_test"):
        if split not in frames:
            continue
        other = frames[split]
        names = f"{_named(tables['test'], 'test')} and {_named(tables[split], split)}"
        if len(other) != len(test) or not np.array_equal(
            other[ROW_ID].to_numpy(), test[ROW_ID].to_numpy()
        ):
            raise DataError(
                f"{names} must hold the same rows in the same order (rows are paired by "
                f"position); they have {len(test)} and {len(other)} rows. Pass the files of one release."
            )
        differ = np.flatnonzero(ranks[split] != ranks["test"])
        if len(differ):
            first = int(differ[0])
            raise DataError(
                f"{names} disagree on the label of {len(differ)} paired rows (first: row "
                f"{int(test[ROW_ID].iat[first])}, {test[LABEL].iat[first]!r} vs "
                f"{other[LABEL].iat[first]!r}); rows are paired by position. Pass the files of one release."
            )


def _check_benchmark_folder(folder: Path) -> None:
    """Refuse a path that holds no built benchmark, naming the other way to evaluate: the split
    files themselves (a release's train.csv is the usual mistake; its files are then named)."""
    import shlex

    from shortcutlab.data.benchmark import MANIFEST

    if (folder / MANIFEST).is_file():
        return
    if folder.is_file():
        problem = "is a file, not a benchmark folder"
    elif folder.is_dir():
        problem = f"is not a benchmark folder: it has no {MANIFEST}"
    else:
        problem = "does not exist"
    release = folder if folder.is_dir() else folder.parent
    found = [release / RELEASE_FILES[split] for split in ("train", "test", "anti_test")]
    train, test, anti = (
        map(shlex.quote, map(str, found)) if all(f.is_file() for f in found) else ["FILE"] * 3
    )
    raise InputFileError(
        f"'{folder}' {problem}. Pass a folder written by 'shortcutlab build maze', or evaluate "
        f"split files as they are: --train {train} --test {test} --anti-test {anti} --out DIR."
    )


def results_folder(
    folder: Path | None, files: ExistingSplits, out: Path | None, model: str
) -> Path:
    """Where ``evaluate`` writes: ``out``, or ``FOLDER/results/MODEL`` for a built benchmark.
    Refuses both a folder and split files, neither, a folder with no benchmark in it, and split
    files without ``out`` (their own folder may be a read-only release)."""
    if folder is not None and files.given():
        raise ConfigError(
            f"Pass either a benchmark folder ('{folder}') or split files (--train, --test, "
            "--anti-test), not both."
        )
    if folder is None and not files.given():
        raise ConfigError(
            "Name what to evaluate: a folder written by 'shortcutlab build maze', or split files "
            "with --train, --test and --anti-test."
        )
    if folder is not None:
        _check_benchmark_folder(folder)
        return out if out is not None else folder / "results" / model
    files.check()
    if out is None:
        raise ConfigError(
            "Evaluating split files needs --out DIR, the folder for the results (the files' own "
            "folder is left as it is)."
        )
    return out
