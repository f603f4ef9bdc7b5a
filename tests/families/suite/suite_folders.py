"""Small Shortcut Suite folders written by hand, in the format build suite writes."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from tests.nli_helpers import nli_pairs

TAUTOLOGIES = ["and false is not true", "and green is not red", "and up is not down"]
POSITIONS = ["premise_front", "premise_end", "hypothesis_front", "hypothesis_end"]
PHRASE = " and ".join(["true is true"] * 5)


def _positioned(premise: str, hypothesis: str, position: str) -> tuple[str, str]:
    if position == "premise_front":
        return f"{PHRASE} and {premise}", hypothesis
    if position == "premise_end":
        return f"{premise} and {PHRASE}", hypothesis
    if position == "hypothesis_front":
        return premise, f"{PHRASE} and {hypothesis}"
    return premise, f"{hypothesis} and {PHRASE}"


def write_suite(folder: Path, *, rows: int = 48, seed: int = 5) -> Path:
    """standard, negation, position (derived, with source_row_id) and a 2-class lexical-overlap set."""
    folder.mkdir(parents=True)
    standard = nli_pairs(rows, seed=seed)
    standard.insert(0, "row_id", np.arange(rows) + 1000)
    negation = standard.assign(
        row_id=np.arange(rows) + 2000,
        source_row_id=standard["row_id"],
        text_pair=[
            f"{h.rstrip('.')} {TAUTOLOGIES[i % 3]}." for i, h in enumerate(standard["text_pair"])
        ],
    )
    placed = [
        _positioned(p, h, POSITIONS[i % 4])
        for i, (p, h) in enumerate(zip(standard["text"], standard["text_pair"], strict=True))
    ]
    position = standard.assign(
        row_id=np.arange(rows) + 3000,
        source_row_id=standard["row_id"],
        text=[p for p, _ in placed],
        text_pair=[h for _, h in placed],
        position=[POSITIONS[i % 4] for i in range(rows)],
    )
    overlap_rows = []
    for i in range(rows // 2):
        a, b = ("doctor", "lawyer") if i % 2 else ("artist", "banker")
        overlap_rows.append(
            (f"The {a} thanked the {b}.", f"The {b} thanked the {a}.", "non-entailment")
        )
        overlap_rows.append((f"The {a} slept and the {b} sang.", f"The {a} slept.", "entailment"))
    overlap = pd.DataFrame(overlap_rows, columns=["text", "text_pair", "label"])
    overlap.insert(0, "row_id", np.arange(len(overlap)) + 4000)
    overlap["heuristic"] = "lexical_overlap"
    sets = {
        "standard": standard,
        "negation": negation,
        "position": position,
        "lexical-overlap": overlap,
    }
    for name, frame in sets.items():
        frame.to_csv(folder / f"{name}.csv", index=False)
    manifest = {
        "splits": {
            name: {"rows": len(frame), "file": f"{name}.csv"} for name, frame in sets.items()
        }
    }
    (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return folder


def hans_only_suite(suite: Path, folder: Path) -> Path:
    """A folder with ``suite``'s lexical-overlap set alone: HANS-style, no standard."""
    folder.mkdir()
    (folder / "lexical-overlap.csv").write_bytes((suite / "lexical-overlap.csv").read_bytes())
    manifest = {"splits": {"lexical-overlap": {"file": "lexical-overlap.csv"}}}
    (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return folder
