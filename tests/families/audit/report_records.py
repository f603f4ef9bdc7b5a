"""Real audit folders for the report's tests: ``audit_dataset`` run on tiny tables built here, so
the report reads what the writer emits, not a hand-made copy of it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd

from shortcutlab.families.audit.api import audit_dataset
from shortcutlab.families.audit.features import FeatureConfig
from shortcutlab.families.audit.repair_config import FixConfig
from tests.families.audit.tables import planted_pairs, reviews

#: The planted cue, wrapped in markup the page must escape.
CUE = '"<frankly>" &'
LABEL_NAMES = {"0": "negative", "1": "positive"}
#: The signal words and the one the judgements file moves (a judged group).
SIGNAL = ("good", "bad")
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
    )
    return out


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


def add_triage(folder: Path) -> dict[str, Any]:
    """The triage fields of the issue-35 contract added to the written record, as the audit
    would sort these candidates: the cue a likely shortcut, 'good'/'bad' label signal (the
    judgements file moved 'bad' there), the rest for the reader's judgement."""
    record = read_record(folder)
    # until the triage lands in run.py
    record["triage"] = {
        "label_names": LABEL_NAMES,
        "judgements": {"file": "judgements.yaml", "applied": 1, "unmatched": ["frankyl"]},
        "counts": {"shortcut": 0, "signal": 0, "judgement": 0},
    }
    for candidate in record["candidates"]:
        name = candidate["candidate"]
        group = "shortcut" if name == "frankly" else "signal" if name in SIGNAL else "judgement"
        candidate["group"] = group  # until the triage lands in run.py
        candidate["group_source"] = (
            "judged" if name == JUDGED else "evidence"
        )  # until the triage lands in run.py
        candidate["evidence"] = _evidence(name, group)  # until the triage lands in run.py
        candidate["shortcut_rank"] = (
            1 if group == "shortcut" else None
        )  # until the triage lands in run.py
        record["triage"]["counts"][group] += 1  # until the triage lands in run.py
    write_record(folder, record)
    return record


def _evidence(name: str, group: str) -> list[dict[str, Any]]:
    """One evidence line of the kind the contract describes, per group."""
    if group == "shortcut":
        return [
            {
                "name": "word class",
                "value": "discourse marker",
                "points_to": "shortcut",
                "text": f"'{name}' is a discourse marker; such words rarely make a label what it is",
            }
        ]
    if group == "signal":
        return [
            {
                "name": "label-name relatedness",
                "value": 0.62,
                "points_to": "signal",
                "text": f"'{name}' is related to the label's name (0.62)",
            }
        ]
    return []
