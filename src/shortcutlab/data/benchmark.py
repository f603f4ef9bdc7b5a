"""A built benchmark: named splits of the canonical table type, its label order and manifest."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from shortcutlab.data.labels import LabelSpace
from shortcutlab.data.loading import TEXT_PAIR, load_table
from shortcutlab.data.writing import (
    FORMATS,
    atomic_output_dir,
    check_output_dir,
    sha256_file,
    split_file,
    write_json,
    write_table,
)
from shortcutlab.errors import ConfigError, DataError, InputFileError, ShortcutlabWarning, listed
from shortcutlab.params import check_choice

if TYPE_CHECKING:
    import pandas as pd
    import pyarrow as pa

MANIFEST = "manifest.json"
# Shortcut Maze splits, then the MPS ones (imbalanced and balanced are alternative training sets).
SPLIT_ORDER = (
    "train",
    "imbalanced",
    "balanced",
    "validation",
    "test",
    "anti_test",
    "original_test",
)
# The splits a model is fitted or tuned on; every other split of a build (Maze's test, anti_test
# and original_test, MPS's test, each Suite set) is one it is evaluated on.
FITTING_SPLITS = ("train", "imbalanced", "balanced", "validation")
# The build's arguments a notebook shows (those a build has), in this order.
SHOWN_ARGUMENTS = ("shortcut", "attribute", "strength", "strength_mode", "schedule", "sets", "seed")


@dataclass(eq=False, repr=False)  # equality and the repr are defined below
class Benchmark(Mapping[str, "pd.DataFrame"]):
    """Named splits with their provenance: train / validation / test / anti-test / original-test
    for a Shortcut Maze build, imbalanced / balanced / validation / test for an MPS build.

    A read-only mapping of split name to table: ``bench["test"]``, ``list(bench)``,
    ``"validation" in bench``, ``bench.items()``. Two benchmarks are equal when their manifests,
    labels and split tables are. Test, anti-test and original-test rows are paired by
    ``row_id``. A benchmark read from a folder loads each split on first access.
    """

    splits: Mapping[str, pd.DataFrame]
    labels: LabelSpace
    manifest: dict[str, Any] = field(default_factory=dict)
    path: Path | None = None

    @property
    def shortcut(self) -> str:
        return str(self.manifest.get("arguments", {}).get("shortcut", ""))

    @property
    def strength(self) -> float | None:
        return self.manifest.get("arguments", {}).get("strength")

    def __getitem__(self, split: str) -> pd.DataFrame:
        if split not in self.splits:
            raise DataError(f"The benchmark has no split {split!r}; it has {listed(self.splits)}.")
        return self.splits[split]

    def __iter__(self) -> Iterator[str]:
        return iter(self.splits)

    def __len__(self) -> int:
        return len(self.splits)

    def __contains__(self, split: object) -> bool:
        return split in self.splits

    def get(self, split: str, default: Any = None) -> Any:
        return self.splits[split] if split in self.splits else default

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Benchmark):
            return NotImplemented
        return (
            self.manifest == other.manifest
            and self.labels == other.labels
            and list(self.splits) == list(other.splits)
            and all(self.splits[name].equals(other.splits[name]) for name in self.splits)
        )

    __hash__ = None  # type: ignore[assignment]  # equal benchmarks hold mutable tables

    def __repr__(self) -> str:
        kind = self.manifest.get("kind", "splits")
        sizes = ", ".join(f"{name}={self._rows(name):,}" for name in self.splits)
        shown = [f"kind={kind!r}"]
        if self.shortcut:
            shown.append(f"shortcut={self.shortcut!r}")
        if self.strength is not None:
            shown.append(f"strength={self.strength}")
        shown.append(f"splits=({sizes})")
        if self.path is not None:
            shown.append(f"path='{self.path}'")
        return f"Benchmark({', '.join(shown)})"

    def _repr_html_(self) -> str:
        """The notebook view: the build's settings, each split's rows per label and, where the
        build recorded it, the share of each label's rows that carry the cue."""
        import pandas as pd  # a notebook view only: a build process never loads pandas

        from shortcutlab.html_table import notebook_view, table_block_html

        arguments = self.manifest.get("arguments", {})
        settings = [
            (key, arguments[key]) for key in SHOWN_ARGUMENTS if arguments.get(key) is not None
        ]
        settings += [("labels", ", ".join(str(v) for v in self.labels.values))]
        settings += [("folder", str(self.path))] if self.path is not None else []
        frame = pd.DataFrame(
            {"value": [str(v) for _, v in settings]},
            index=pd.Index([k for k, _ in settings], name="setting"),
        )
        parts = [table_block_html("benchmark-settings", "Build", frame)]
        parts.append(
            table_block_html("benchmark-splits", "Rows per split and label", self.split_sizes())
        )
        rates = self.cue_rates()
        if not rates.empty:
            parts.append(
                table_block_html(
                    "benchmark-cue-rates", "Share of each label's rows with the cue", rates
                )
            )
        return notebook_view(f"Benchmark: {self.manifest.get('kind', 'splits')}", parts)

    def _rows(self, split: str) -> int:
        """A split's rows: a folder's as its manifest records them (the repr reads no file)."""
        recorded = self.manifest.get("splits", {}).get(split, {}).get("rows")
        if isinstance(self.splits, SplitFiles) and isinstance(recorded, int):
            return recorded
        return len(self.splits[split])

    def split_sizes(self) -> pd.DataFrame:
        """Rows per split (reading each split of a folder), in all and per label."""
        import pandas as pd

        labels = self.labels.values
        rows = []
        for frame in self.splits.values():
            counts = frame["label"].value_counts()
            rows.append([len(frame), *(int(counts.get(value, 0)) for value in labels)])
        columns = ["rows", *(f"label {value}" for value in labels)]
        return pd.DataFrame(rows, index=pd.Index(list(self.splits), name="split"), columns=columns)

    def cue_rates(self) -> pd.DataFrame:
        """Per split, the share of each label's rows with the cue, as the build observed it
        (empty where the manifest records none: MPS and Suite builds)."""
        import pandas as pd

        records = self.manifest.get("splits", {})
        rates = {
            name: record["observed_rate"]
            for name, record in records.items()
            if record.get("observed_rate")
        }
        columns = [f"label {value}" for value in self.labels.values]
        return pd.DataFrame(
            [[rate.get(str(value)) for value in self.labels.values] for rate in rates.values()],
            index=pd.Index(list(rates), name="split"),
            columns=columns,
            dtype=float,
        )

    def save(self, out: str | Path, *, fmt: str = "csv", overwrite: bool = False) -> Path:
        """Write every split and ``manifest.json`` into ``out`` atomically; returns ``out``."""
        self.manifest = save_splits(self.splits, self.manifest, out, fmt=fmt, overwrite=overwrite)
        self.path = Path(out)
        return self.path

    @classmethod
    def load(cls, folder: str | Path) -> Benchmark:
        """Read a benchmark folder written by :meth:`save` (or by ``shortcutlab build``)."""
        manifest, splits = read_manifest_splits(folder)
        try:
            labels = LabelSpace(tuple(manifest["labels"]))
        except (KeyError, TypeError) as exc:
            raise DataError(
                f"'{Path(folder) / MANIFEST}' is not a valid benchmark manifest ({exc})."
            ) from exc
        return cls(splits=splits, labels=labels, manifest=manifest, path=Path(folder))


def original_test_beside(test: Any) -> Path | None:
    """Ori-Test of the Shortcut Maze build whose test file ``test`` is (the same test rows before
    the cue was planted, section 2.3), or None when ``test`` is no Maze build's test file."""
    if not isinstance(test, str | Path) or not Path(test).is_file():
        return None
    path = Path(test)
    try:
        manifest, splits = read_manifest_splits(path.parent)
    except (InputFileError, DataError):
        return None
    files = splits.paths()
    if manifest.get("kind") != "shortcut-maze" or "original_test" not in files:
        return None
    if files.get("test") is None or files["test"].resolve() != path.resolve():
        return None
    return files["original_test"]


def read_manifest_splits(folder: str | Path) -> tuple[dict[str, Any], SplitFiles]:
    """A benchmark folder's manifest and its splits in order (each read on first access)."""
    folder = Path(folder)
    manifest_path = folder / MANIFEST
    if not manifest_path.exists():
        raise InputFileError(
            f"'{folder}' is not a benchmark folder: it has no {MANIFEST}. "
            f"Build one with 'shortcutlab build' or pass the folder it wrote."
        )
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        records = manifest["splits"]
        if not isinstance(manifest.get("arguments", {}), dict):
            raise TypeError("its 'arguments' is not an object")
        order = [s for s in SPLIT_ORDER if s in records] + [
            s for s in records if s not in SPLIT_ORDER
        ]
        files = {name: folder / records[name]["file"] for name in order}
    except (json.JSONDecodeError, KeyError, TypeError) as exc:
        raise DataError(f"'{manifest_path}' is not a valid benchmark manifest ({exc}).") from exc
    for path in files.values():
        if not path.exists():
            raise InputFileError(f"The benchmark file '{path}' is missing; rebuild the benchmark.")
    has_pair = manifest.get("arguments", {}).get("text_pair_col") is not None
    return manifest, SplitFiles(files, {n: records[n].get("sha256") for n in order}, has_pair)


class SplitFiles(Mapping[str, "pd.DataFrame"]):
    """The splits of a benchmark folder, each read on first access (and checked against the
    sha256 its manifest recorded)."""

    def __init__(
        self, files: dict[str, Path], sha256: dict[str, str | None], has_pair: bool
    ) -> None:
        self._files, self._sha256, self._has_pair = files, sha256, has_pair
        self._loaded: dict[str, pd.DataFrame] = {}

    def __getitem__(self, name: str) -> pd.DataFrame:
        if name not in self._loaded:
            path = self._files[name]
            loaded = load_table(
                path,
                text_pair_col=TEXT_PAIR if self._has_pair else None,
                on_empty="keep",
                role=name,
            )
            if self._sha256[name] not in (None, loaded.source.sha256):
                warnings.warn(
                    f"'{path}' differs from the file recorded in {MANIFEST}: it was changed after the build.",
                    ShortcutlabWarning,
                    stacklevel=2,
                )
            frame = loaded.frame
            if "shortcut" in frame:
                frame["shortcut"] = (
                    frame["shortcut"].astype(object).where(frame["shortcut"].notna(), "")
                )
            self._loaded[name] = frame
        return self._loaded[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._files)

    def __len__(self) -> int:
        return len(self._files)

    def paths(self) -> dict[str, Path]:
        """Each split's file, by name."""
        return dict(self._files)


def check_build_start(
    fmt: str, seed: Any, out: str | Path | None, overwrite: bool, sources: Sequence[Any] = ()
) -> None:
    """What every builder refuses before any work: an unknown format, a bad seed, an output
    folder it may not write (failing here, not after the build), such as one holding one of the
    ``sources`` read (the paths among them: tables in memory are skipped)."""
    check_choice("format", fmt, FORMATS)
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise ConfigError(
            f"The 'seed' parameter must be a non-negative integer. Got {seed!r} instead."
        )
    if out is not None:
        paths = [str(s).split("::")[0] for s in sources if isinstance(s, str | Path)]
        check_output_dir(Path(out), overwrite=overwrite, inputs=paths)


def save_splits(
    splits: Mapping[str, pd.DataFrame | pa.Table],
    manifest: dict[str, Any],
    out: str | Path,
    *,
    fmt: str = "csv",
    overwrite: bool = False,
) -> dict[str, Any]:
    """Write the splits (pandas or Arrow) and their manifest into ``out`` atomically; returns the
    manifest as written (with the format and every file's name and sha256)."""
    check_choice("format", fmt, FORMATS)
    out = Path(out)
    manifest = json.loads(json.dumps(manifest))  # a deep copy that is known to be JSON
    manifest.setdefault("arguments", {})["format"] = fmt
    with atomic_output_dir(out, overwrite=overwrite) as tmp:
        for name, frame in splits.items():
            path = write_table(frame, split_file(tmp, name, fmt), fmt)
            record = manifest.setdefault("splits", {}).setdefault(name, {})
            record.update({"file": path.name, "sha256": sha256_file(path)})
        write_json(tmp / MANIFEST, manifest)
    return manifest
