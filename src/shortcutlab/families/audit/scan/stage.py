"""The scan: every candidate of a data set, tested, corrected and ranked in one tidy table.

Indicator candidates (tokens, n-grams, attributes, surface properties, lexicons, metadata values)
are tested one feature at a time: the label mix of its rows against the other rows' (the
"competency problems" test of Gardner et al. 2021, section 3, as a likelihood-ratio test of
independence on the 2×K table); a candidate's label is the one it raises most, and its detail
says when it mainly lowers another. Partial-input baselines add one test per part of a pair (one-
sided: above the majority label). Indicators with exactly the same rows (a word and the
frequent-words value of the same word) are one candidate, listed under the first kind, the others
named in its detail. One correction (Benjamini–Hochberg by default, or Holm) runs over every test
of the scan, so "significant" means the same thing for every kind. Leakage findings are counts,
not tests: they get no p-value and no rank.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from shortcutlab.errors import ConfigError, DataError, knob, listed
from shortcutlab.families.audit.scan.candidates import SCAN_COLUMNS, FeatureSet
from shortcutlab.families.audit.scan.features import FeatureConfig, FeaturePlan, fit_features
from shortcutlab.families.audit.scan.inputs import AuditInputs
from shortcutlab.families.audit.scan.leakage import Leakage, find_leakage
from shortcutlab.families.audit.scan.memory import release_freed_memory
from shortcutlab.families.audit.scan.partial_input import partial_input_baselines
from shortcutlab.metrics.association import (
    association_drift,
    column_association,
    count_association,
    feature_association,
)
from shortcutlab.metrics.corrections import CORRECTIONS, adjust_p
from shortcutlab.params import check_choice, quoted

#: Training rows every label needs before its tests mean anything (the chi-squared reference of
#: the G-test is poor where a label's expected counts are tiny).
MIN_ROWS_PER_LABEL = 10


@dataclass(frozen=True)
class ScanConfig:
    """What the scan tests and how it corrects; ``features`` says which indicators it builds."""

    features: FeatureConfig = field(default_factory=FeatureConfig)
    correction: str = "bh"
    alpha: float = 0.05
    leakage_threshold: float = 0.8
    partial_input_model: str = "tfidf-logreg"
    folds: int = 5
    seed: int = 0

    def check(self) -> None:
        check_choice("correction", self.correction, CORRECTIONS)
        if not 0 < self.alpha < 1:
            raise ConfigError(
                f"{knob('alpha')} must be in (0, 1), e.g. {knob('alpha', 0.05)}. Got {self.alpha}."
            )
        if not 0 < self.leakage_threshold <= 1:
            raise ConfigError(
                f"The near-duplicate threshold must be in (0, 1], e.g. 0.8. Got {self.leakage_threshold}."
            )
        if self.folds < 2:
            raise ConfigError(f"Cross-validation needs at least 2 folds. Got {self.folds}.")

    def to_json(self) -> dict[str, Any]:
        record = asdict(self)
        record["features"] = {k: _plain(v) for k, v in record["features"].items()}
        return record


@dataclass
class ScanResult:
    """The ranked candidates and what was fitted and found on the way."""

    config: ScanConfig
    plan: FeaturePlan
    train_features: FeatureSet
    test_features: FeatureSet | None
    #: SCAN_COLUMNS plus ``key`` (the feature's key, or the kind's own id) and ``label_rank``.
    candidates: pd.DataFrame
    leakage: Leakage
    partial_input: list[dict[str, Any]]
    tests: int

    def significant(self) -> pd.DataFrame:
        return self.candidates[self.candidates["significant"].fillna(False).astype(bool)]


def check_label_counts(
    inputs: AuditInputs, *, role: str = "training", held_out: float | None = None
) -> None:
    """Refuse data where a label has too few rows for any test (the message says the minimum).

    ``held_out``: the share of the user's rows set aside before ``inputs`` (the message says so,
    since its counts are then not the ones the file shows)."""
    counts = np.bincount(inputs.ranks, minlength=len(inputs.labels))
    scarce = [
        (v, int(c))
        for v, c in zip(inputs.labels.values, counts, strict=True)
        if c < MIN_ROWS_PER_LABEL
    ]
    if scarce:
        counted = listed(f"{quoted(value)} has {count}" for value, count in scarce)
        after, fix = "", "Add rows or drop the label."
        if held_out is not None:
            share = round(held_out * 100, 1)
            after = f" after holding out {share:g} % of the rows to measure the model"
            fix = (
                f"Add rows, drop the label, lower {knob('holdout')} or give a {knob('test')} table."
            )
        raise DataError(
            f"Too few {role} rows per label for any test{after}: {counted}; an audit needs at "
            f"least {MIN_ROWS_PER_LABEL} rows of every label. {fix}"
        )


def scan(train: AuditInputs, test: AuditInputs | None, config: ScanConfig) -> ScanResult:
    """Build, test, correct and rank every candidate of ``train`` (and compare with ``test``)."""
    config.check()
    check_label_counts(train)
    release_freed_memory()  # what reading the files left (memory.py)
    plan, train_features = fit_features(train, config.features)
    test_features = plan.transform(test) if test is not None else None
    release_freed_memory()  # the indicators' building blocks are gone (memory.py)
    n_classes = len(train.labels)
    counted = train_features.counts
    if counted is None:
        raise ValueError("the scanned table's features carry no counts")
    stats = count_association(
        counted.counts, counted.support, np.bincount(train.ranks, minlength=n_classes)
    )
    kept, same_rows = distinct_indicators(train_features)
    release_freed_memory()
    partial = partial_input_baselines(
        train, test, model=config.partial_input_model, seed=config.seed, folds=config.folds
    )
    # One family: every indicator test and every partial-input test.
    p_all = np.concatenate([stats["p_value"][kept], [row["p_value"] for row in partial]])
    adjusted_all = adjust_p(p_all, config.correction) if len(p_all) else p_all
    n_indicator = len(kept)
    stats["p_adjusted"] = np.full(len(stats["p_value"]), np.nan)
    stats["p_adjusted"][kept] = adjusted_all[:n_indicator]
    rows = _indicator_rows(train_features, stats, train, config.alpha, kept, same_rows)
    if test is not None and test_features is not None:
        rows = _with_drift(
            rows, train.ranks, test_features, test.ranks, n_classes, config.correction
        )
    partial_rows = [
        _partial_row(row, adjusted, config.alpha)
        for row, adjusted in zip(partial, adjusted_all[n_indicator:], strict=True)
    ]
    leakage = find_leakage(train, test, threshold=config.leakage_threshold, seed=config.seed)
    table = rank_candidates(pd.concat([rows, pd.DataFrame(partial_rows)], ignore_index=True))
    table = pd.concat([table, pd.DataFrame(leakage.summary_rows(train.labels))], ignore_index=True)
    for column in (*SCAN_COLUMNS, "key", "label_rank"):
        if column not in table.columns:
            table[column] = None
    # Concatenating rows without a rank or label (leakage, partial input) turns those columns
    # into floats; a rank is a whole number and a label keeps its own value.
    for counted in ("rank", "label_rank", "support", "label_count", "test_support"):
        table[counted] = table[counted].astype("Int64")
    table["label"] = pd.Series(
        [None if pd.isna(r) else train.labels.values[int(r)] for r in table["label_rank"]],
        index=table.index,
        dtype=object,
    )
    return ScanResult(
        config=config,
        plan=plan,
        train_features=train_features,
        test_features=test_features,
        candidates=table[[*SCAN_COLUMNS, "key", "label_rank"]],
        leakage=leakage,
        partial_input=partial,
        tests=len(p_all),
    )


def distinct_indicators(features: FeatureSet) -> tuple[np.ndarray, dict[int, list[int]]]:
    """The features to test (the first of every set with identical rows, in column order, which
    puts tokens before attributes) and, per kept feature, the later ones with the same rows
    (identical rows: the same support, label counts and fingerprint of rows,
    :mod:`~shortcutlab.families.audit.scan.indicator_counts`)."""
    counted = features.counts
    if counted is None:
        raise ValueError("the scanned table's features carry no counts")
    first: dict[bytes, int] = {}
    same: dict[int, list[int]] = {}
    kept = []
    for j, signature in enumerate(counted.signatures()):
        if signature in first:
            same.setdefault(first[signature], []).append(j)
            continue
        first[signature] = j
        kept.append(j)
    return np.asarray(kept, dtype=np.int64), same


def _indicator_rows(
    features: FeatureSet,
    stats: dict[str, np.ndarray],
    train: AuditInputs,
    alpha: float,
    kept: np.ndarray,
    same_rows: dict[int, list[int]],
) -> pd.DataFrame:
    """One row per tested feature, with the label it raises most."""
    label = stats["label"][kept]
    return pd.DataFrame(
        {
            "candidate": [features.names[j] for j in kept],
            "kind": [features.kinds[j] for j in kept],
            "part": [features.parts[j] for j in kept],
            "label": [train.labels.values[r] for r in label],
            "support": stats["support"][kept],
            "label_count": stats["label_count"][kept],
            "p_label_given_candidate": stats["p_label"][kept],
            "prior": stats["prior"][kept],
            "lift": stats["lift"][kept],
            "pmi": stats["pmi"][kept],
            "p_value": stats["p_value"][kept],
            "p_adjusted": stats["p_adjusted"][kept],
            "significant": stats["p_adjusted"][kept] < alpha,
            "evidence": stats["evidence"][kept],
            "association": _column_strengths(features, kept, train),
            "detail": [
                _indicator_detail(features, same_rows.get(int(j), []), stats, int(j), train)
                for j in kept
            ],
            "key": [features.keys[j] for j in kept],
            "feature": kept,
            "label_rank": label,
        }
    )


def _indicator_detail(
    features: FeatureSet,
    others: list[int],
    stats: dict[str, np.ndarray],
    j: int,
    train: AuditInputs,
) -> str | None:
    """The features with the same rows, and the label the candidate mainly lowers when the label
    that adds most to its G is one it lowers (its ``label``, the largest lift, then names a label
    it may barely raise). Not with two labels: lowering one is raising the other, its ``label``."""
    parts = []
    if others:
        parts.append("same rows as " + ", ".join(features.names[k] for k in others))
    main_lift = float(stats["main_lift"][j])
    if main_lift < 1 and len(train.labels) > 2:
        lowered = train.labels.values[int(stats["main_label"][j])]
        parts.append(f"mainly lowers {lowered} (lift {main_lift:.2f})")
    return "; ".join(parts) or None


def _column_strengths(
    features: FeatureSet, feature: np.ndarray, train: AuditInputs
) -> list[float | None]:
    """Cramér's V of each metadata column (over its values as the indicators split them), for
    the rows of its values; None for the other kinds."""
    strength: dict[str, float] = {}
    for group in sorted({features.groups[j] for j in feature if features.kinds[j] == "metadata"}):
        columns = [
            j
            for j, g in enumerate(features.groups)
            if g == group and features.kinds[j] == "metadata"
        ]
        fires = features.columns([features.keys[j] for j in columns])
        block = np.column_stack([fires[features.keys[j]] for j in columns])
        has_value = block.any(axis=1)
        values = block.argmax(axis=1)[has_value]
        ranks = train.ranks[has_value]
        strength[group] = column_association(values, ranks, len(train.labels))["cramers_v"]
    return [
        strength[features.groups[j]] if features.kinds[j] == "metadata" else None for j in feature
    ]


def _with_drift(
    rows: pd.DataFrame,
    train_ranks: np.ndarray,
    test_features: FeatureSet,
    test_ranks: np.ndarray,
    n_classes: int,
    method: str,
) -> pd.DataFrame:
    """Each candidate's label share on the test rows, and whether its association differs from
    training's (odds ratios compared, so a different label mix alone is not drift)."""
    stats = feature_association(test_features.matrix, test_ranks, n_classes)
    feature = rows["feature"].to_numpy()
    label = rows["label_rank"].to_numpy()
    support = stats["support"][feature]
    counts = stats["counts"][feature, label]
    test_totals = np.bincount(test_ranks, minlength=n_classes)
    with np.errstate(divide="ignore", invalid="ignore"):
        share = np.where(support > 0, counts / np.maximum(support, 1), np.nan)
        lift = share / (test_totals[label] / len(test_ranks))
    train_totals = np.bincount(train_ranks, minlength=n_classes)
    drift = association_drift(
        _two_by_two(
            rows["label_count"].to_numpy(),
            rows["support"].to_numpy(),
            train_totals[label],
            len(train_ranks),
        ),
        _two_by_two(counts, support, test_totals[label], len(test_ranks)),
    )
    compared = ~np.isnan(drift)
    adjusted = np.full(len(drift), np.nan)
    if compared.any():
        adjusted[compared] = adjust_p(drift[compared], method)
    return rows.assign(
        test_support=support,
        test_p_label_given_candidate=share,
        test_lift=lift,
        drift_p=drift,
        drift_p_adjusted=adjusted,
    )


def _two_by_two(
    count: np.ndarray, support: np.ndarray, label_total: np.ndarray, rows: int
) -> np.ndarray:
    """(n, 4) tables [with & label, with & other, without & label, without & other]."""
    return np.column_stack(
        [count, support - count, label_total - count, rows - support - label_total + count]
    )


def _partial_row(row: dict[str, Any], adjusted: float, alpha: float) -> dict[str, Any]:
    evidence = -np.log10(max(row["p_value"], 1e-300))
    return {
        "candidate": row["candidate"],
        "kind": "partial-input",
        "part": row["part"],
        "support": row["rows"],
        "p_value": row["p_value"],
        "p_adjusted": adjusted,
        # One-sided p: below alpha (< 0.5) only where the part alone is right more often.
        "significant": bool(adjusted < alpha),
        "evidence": evidence,
        "detail": row["detail"],
        "key": f"partial-input:{row['part']}",
    }


def rank_candidates(table: pd.DataFrame) -> pd.DataFrame:
    """Significant candidates first, by evidence, then lift, then key (a total order: the same
    data always gives the same ranks); rank 1.. over all tested candidates."""
    significant = table["significant"].fillna(False).astype(bool)
    lift = table["lift"].astype(float).fillna(0.0)
    order = np.lexsort(
        (
            table["key"].astype(str).to_numpy(),
            -lift.to_numpy(),
            -table["evidence"].astype(float).to_numpy(),
            ~significant.to_numpy(),
        )
    )
    ranked = table.iloc[order].reset_index(drop=True)
    ranked.insert(0, "rank", np.arange(1, len(ranked) + 1))
    return ranked


def _plain(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value
