"""Read any built benchmark folder (Maze, MPS, Suite) as named splits, a label order and a manifest.

Every family's ``build`` writes ``manifest.json`` with a ``splits`` mapping (split or set name ->
file), so one reader serves them all: an exporter never asks which family wrote the folder.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from shortcutlab.data.benchmark import MANIFEST, read_manifest_splits
from shortcutlab.data.labels import LabelSpace
from shortcutlab.errors import DataError

if TYPE_CHECKING:
    import pandas as pd


@dataclass
class BenchmarkFolder:
    """A built benchmark as an exporter sees it: splits in their order, labels, the manifest."""

    path: Path
    manifest: dict[str, Any]
    splits: Mapping[str, pd.DataFrame]
    labels: LabelSpace

    @property
    def kind(self) -> str:
        return str(self.manifest.get("kind", "benchmark"))


def read_benchmark_folder(folder: str | Path) -> BenchmarkFolder:
    """The benchmark ``build`` wrote into ``folder``; its labels are the manifest's order (Maze,
    MPS) or, where it records none (Suite), the sorted labels its splits hold."""
    path = Path(folder)
    manifest, splits = read_manifest_splits(path)
    try:
        recorded = LabelSpace(tuple(manifest["labels"])) if "labels" in manifest else None
    except (TypeError, ValueError) as exc:
        raise DataError(f"'{path / MANIFEST}' is not a valid benchmark manifest ({exc}).") from exc
    if recorded is not None:
        labels = recorded
    else:
        unlabelled = [name for name, frame in splits.items() if "label" not in frame.columns]
        if unlabelled:
            raise DataError(f"The split {unlabelled[0]!r} of '{path}' has no label column.")
        found = {value for frame in splits.values() for value in frame["label"].tolist()}
        labels = LabelSpace(tuple(sorted(found, key=str)))
    return BenchmarkFolder(path, manifest, splits, labels)
