"""Read a Shortcut Suite folder (``build suite``): ``manifest.json`` plus one table per set.

Each set file ``DIR/<set>.<fmt>`` has ``row_id, text, text_pair, label`` and per-set columns:
``source_row_id`` (negation / position / style rows keep the ``standard`` row they came from),
``position``, ``heuristic``, ``subcase``, ``tautology``. The HANS-style sets are 2-class
(entailment / non-entailment, section 4.1); their predictions are mapped to those two labels.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from shortcutlab.data.loading import load_table
from shortcutlab.errors import DataError, listed, spelled
from shortcutlab.names import check_name

STANDARD = "standard"
HANS_SETS = ("lexical-overlap", "subsequence", "constituent")
ENTAILMENT, NON_ENTAILMENT = "entailment", "non-entailment"
SET_FORMATS = (".csv", ".tsv", ".jsonl", ".parquet", ".csv.gz", ".tsv.gz", ".jsonl.gz")
# The order of Table 2 (section 5.1), used to print sets in the paper's order.
PAPER_ORDER = ("standard", *HANS_SETS, "negation", "position", "style")


@dataclass
class SuiteFolder:
    """The sets of one Suite folder, each a canonical table, in the paper's order."""

    path: Path
    manifest: dict[str, Any]
    sets: dict[str, pd.DataFrame]

    @property
    def has_standard(self) -> bool:
        """Whether changes can be measured: a folder of HANS-style sets alone has no standard."""
        return STANDARD in self.sets

    def is_two_class(self, name: str) -> bool:
        """HANS-style sets: gold labels entailment / non-entailment only (Table 2's E / ¬E)."""
        labels = {normalise_label(v) for v in self.sets[name]["label"].unique()}
        return name in HANS_SETS or (
            NON_ENTAILMENT in labels and labels <= {ENTAILMENT, NON_ENTAILMENT}
        )


def normalise_label(value: Any) -> str:
    """Label names compared loosely: lower case, ``_`` and spaces as ``-`` (not_entailment too).

    Examples:
        >>> normalise_label("Not_Entailment"), normalise_label("non-entailment")
        ('non-entailment', 'non-entailment')
    """
    name = "-".join(str(value).strip().lower().replace("_", " ").split())
    return NON_ENTAILMENT if name in ("not-entailment", "non-entailment") else name


def _build() -> str:
    """How the caller builds a Suite folder."""
    return spelled("shortcutlab build suite --out DIR", "build_suite_benchmark(..., out=DIR)")


def read_suite(folder: str | Path, sets: list[str] | None = None) -> SuiteFolder:
    """The manifest and the set tables of ``folder`` (all sets, or those named in ``sets``)."""
    path = Path(folder)
    manifest_path = path / "manifest.json"
    if not path.is_dir():
        raise DataError(f"The Suite folder '{path}' does not exist. Build one with {_build()}.")
    if not manifest_path.is_file():
        raise DataError(
            f"The Suite folder '{path}' has no manifest.json. Pass a folder written by {_build()}."
        )
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise DataError(
            f"The Suite manifest '{manifest_path}' is not valid JSON ({exc.msg}, line {exc.lineno})."
        ) from exc
    set_files = _listed_sets(manifest)
    for name, file in set_files.items():  # both become file names under the folder
        check_name(name, f"A set name in '{manifest_path}'")
        if file is not None:
            check_name(file, f"The file of the set {name!r} in '{manifest_path}'")
    if sets is not None:
        unknown = [s for s in sets if s not in set_files]
        if unknown:
            raise DataError(
                f"The Suite folder '{path}' has no set(s) {listed(unknown)}. Sets: {listed(set_files)}."
            )
        set_files = {s: f for s, f in set_files.items() if s in sets}
    tables = {name: _read_set(path, name, set_files[name]) for name in set_files}
    names = list(set_files)
    order = sorted(
        tables,
        key=lambda n: (
            PAPER_ORDER.index(n) if n in PAPER_ORDER else len(PAPER_ORDER),
            names.index(n),
        ),
    )
    return SuiteFolder(path, manifest, {name: tables[name] for name in order})


def _listed_sets(manifest: dict[str, Any]) -> dict[str, str | None]:
    """Set name -> file name: build suite writes ``splits: {name: {file: ...}}``; a
    ``sets`` list or mapping (hand-made folders) finds ``DIR/<set>.<fmt>`` itself."""
    for key in ("splits", "sets"):
        listed = manifest.get(key)
        if isinstance(listed, dict) and listed:
            return {
                str(name): (
                    str(entry["file"]) if isinstance(entry, dict) and entry.get("file") else None
                )
                for name, entry in listed.items()
            }
        if isinstance(listed, list) and listed:
            return {str(s["name"]) if isinstance(s, dict) else str(s): None for s in listed}
    raise DataError(
        "The Suite manifest lists no sets; expected the 'splits' mapping that build suite writes."
    )


def _read_set(folder: Path, name: str, file: str | None) -> pd.DataFrame:
    files = (
        [folder / file]
        if file is not None and (folder / file).is_file()
        else [
            folder / f"{name}{suffix}"
            for suffix in SET_FORMATS
            if (folder / f"{name}{suffix}").is_file()
        ]
    )
    if not files:
        raise DataError(
            f"The Suite manifest lists the set '{name}' but '{folder}' has no {name}.csv (or .tsv, .jsonl, .parquet)."
        )
    frame = load_table(files[0], text_pair_col="text_pair", role=name, on_empty="keep").frame
    if len(frame) == 0:
        raise DataError(f"The Suite set '{name}' in '{folder}' has no rows.")
    return frame
