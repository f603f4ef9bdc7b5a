"""Real audit folders for the report's tests: ``audit_dataset`` run on tiny tables built here, so
the report reads what the writer emits, not a hand-made copy of it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd

from shortcutlab.families.audit.api import audit_dataset
from shortcutlab.families.audit.repair.config import FixConfig
from shortcutlab.families.audit.scan.features import FeatureConfig
from tests.families.audit.tables import planted_pairs, reviews

#: The planted cue, wrapped in markup the page must escape.
CUE = '"<frankly>" &'
LABEL_NAMES = {"0": "negative", "1": "positive"}
#: The word the judgements file moves to label signal (a judged group).
JUDGED = "bad"


def measured_audit(out: Path, *, fix: bool = True) -> Path:
    """A measured audit of the reviews (with ``fix``: the repairs of 'frankly'), written to
    ``out``."""
    audit_dataset(
        reviews(600, 0, 0.9, CUE),
        reviews(300, 1, 0.1, CUE),
        text_col="sentence",
        label_col="gold",
        features=FeatureConfig(attributes=("negation",), packaged_lexicons=False),
        model="tfidf-logreg",
        out=out,
        fix=FixConfig(candidates=("frankly",), methods=("erm", "mask-candidate")) if fix else None,
        label_names=LABEL_NAMES,
        judgements=_judgements_file(out.parent),
    )
    return out


def _judgements_file(folder: Path) -> Path:
    """'bad' judged signal, and a misspelt name no candidate has (the record lists it)."""
    path = folder / "judgements.yaml"
    path.write_text(f"signal: [{JUDGED}]\nshortcut: [frankyl]\n", encoding="utf-8")
    return path


def paired_audit(out: Path) -> Path:
    """A scan of NLI-like pairs (the hypothesis's 'not'), three test rows repeating training
    rows, one of them with another label; no model."""
    premises, hypotheses, labels = planted_pairs(600, seed=3)
    train = pd.DataFrame({"premise": premises, "hypothesis": hypotheses, "label": labels})
    premises, hypotheses, labels = planted_pairs(300, seed=4)
    test = pd.DataFrame({"premise": premises, "hypothesis": hypotheses, "label": labels})
    test.iloc[:3] = train.iloc[:3].to_numpy()
    test.loc[2, "label"] = next(x for x in ("entailment", "neutral") if x != train.loc[2, "label"])
    audit_dataset(
        train,
        test,
        text_col="premise",
        text_pair_col="hypothesis",
        features=FeatureConfig(surface=False, attributes=(), packaged_lexicons=False),
        out=out,
    )
    return out


def read_record(folder: Path) -> dict[str, Any]:
    return json.loads((folder / "audit.json").read_text(encoding="utf-8"))


def write_record(folder: Path, record: dict[str, Any]) -> None:
    (folder / "audit.json").write_text(json.dumps(record), encoding="utf-8")
