"""``run_audit``: load a user's data, scan it, and (with a model) measure the top candidates.

Without a test table a model is measured on a stratified held-out share of the data, and the scan
reads only the rest, so no row that ranks a candidate also measures it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from shortcutlab.data.labels import LabelSpace
from shortcutlab.data.loading import LoadedTable
from shortcutlab.data.options import ReadingOptions
from shortcutlab.errors import ConfigError, DataError, knob
from shortcutlab.families.audit.reliance.predictor import Predictor, load_predictor
from shortcutlab.families.audit.repair.config import FixConfig
from shortcutlab.families.audit.report.audit_record import AuditResult, build_record
from shortcutlab.families.audit.report.part_names import shown_name, with_shown_names
from shortcutlab.families.audit.scan.candidates import (
    INDICATOR_KINDS,
    MEASURE_COLUMNS,
    Candidate,
    Phrases,
)
from shortcutlab.families.audit.scan.inputs import AuditInputs, inputs_from_table
from shortcutlab.families.audit.scan.stage import ScanConfig, ScanResult, check_label_counts, scan
from shortcutlab.families.audit.triage.config import TriageConfig
from shortcutlab.families.audit.triage.groups import (
    Triage,
    apply_triage,
    measurement_order,
)
from shortcutlab.families.audit.triage.judge import open_judge
from shortcutlab.families.audit.triage.judgements import read_judgements
from shortcutlab.families.audit.triage.stage import triage_stage
from shortcutlab.families.audit.triage.styles import MarkerSet, fires_of
from shortcutlab.models.adapters import json_safe_params, model_label


@dataclass(frozen=True)
class MeasureConfig:
    """Which model is measured, on how many of the top candidates, and on what rows."""

    model: str
    params: Mapping[str, Any] = field(default_factory=dict)
    top: int = 10
    holdout: float = 0.2
    n_resamples: int = 1000
    redistribution: bool = True

    def check(self) -> None:
        if self.top < 1:
            raise ConfigError(f"{knob('measure_top')} must be a whole number >= 1. Got {self.top}.")
        if not 0 < self.holdout < 1:
            raise ConfigError(
                f"{knob('holdout')} must be a share in (0, 1), e.g. 0.2. Got {self.holdout}."
            )
        if self.n_resamples < 100:
            raise ConfigError(
                f"The bootstrap needs at least 100 resamples (default 1000). Got {self.n_resamples}."
            )


def load_inputs(
    source: Any,
    *,
    role: str,
    labels: LabelSpace | None = None,
    given_labels: Sequence[Any] | None = None,
    reading: ReadingOptions | None = None,
    metadata: Sequence[str] = (),
) -> tuple[AuditInputs, LoadedTable]:
    """Read one table (or take a loaded one) with ``reading`` (default: columns text and label)
    into :class:`AuditInputs` (the training table fixes the label space)."""
    loaded = (reading or ReadingOptions()).read(source, role=role)
    inputs = inputs_from_table(
        loaded.table, role=role, labels=labels, given_labels=given_labels, metadata=metadata
    )
    return inputs, loaded


def holdout_split(inputs: AuditInputs, share: float, seed: int) -> tuple[AuditInputs, AuditInputs]:
    """A stratified split: (rows the scan and the fit read, rows the model is measured on)."""
    from sklearn.model_selection import train_test_split  # only when a model is measured

    rows = np.arange(len(inputs))
    try:
        kept, held = train_test_split(
            rows, test_size=share, random_state=seed, stratify=inputs.ranks
        )
    except ValueError as error:  # a label too rare to stratify
        raise DataError(
            f"Cannot hold out {share:.0%} of the rows per label ({error}); give a {knob('test')} table."
        ) from error
    return inputs.select(np.sort(kept)), inputs.select(np.sort(held))


def run_audit(
    train: AuditInputs,
    test: AuditInputs | None = None,
    *,
    scan_config: ScanConfig | None = None,
    measure: MeasureConfig | None = None,
    top: int = 20,
    sources: Mapping[str, Any] | None = None,
    fix: FixConfig | None = None,
    part_names: Mapping[str, str] | None = None,
    triage: TriageConfig | None = None,
    original_test: AuditInputs | None = None,
    progress: Callable[[str], None] | None = None,
) -> AuditResult:
    """Scan ``train`` (and ``test``), then measure ``measure.model`` on the top candidates (and
    with ``fix`` repair the candidates it relies on; ``part_names``: the user's column of each
    part, for candidate names such as "hypothesis: no", families/audit/report/part_names.py;
    ``triage``: the labels' names, the user's judgements and an LLM judge, which sort the
    candidates into likely shortcuts, label signal and those needing a judgement; ``original_test``: a Maze build's
    Ori-Test, where ``fix`` charges a repair's cost too; ``progress`` hears one line per repair
    fitted)."""
    scan_config = scan_config or ScanConfig()
    scan_config.check()
    triage = triage or TriageConfig()
    label_names = triage.names_by_rank(train.labels)  # a name of no label is refused first
    judgements = read_judgements(triage.judgements)
    judge = open_judge(triage.judge, label_names, seed=scan_config.seed)  # a dead server: now
    if measure is not None:
        measure.check()
    # On the user's rows first (counts as the file shows them, and before a label too rare to
    # stratify fails the split), then on the rows the scan reads.
    check_label_counts(train)
    scanned, evaluation, evaluated_on = _split_for_measuring(train, test, measure, scan_config.seed)
    predictor = None
    if measure is not None:
        # Before the scan: an unknown name or an unfitted file is refused before minutes of work.
        predictor = load_predictor(
            measure.model, measure.params, train=scanned, seed=scan_config.seed
        )
    result = scan(scanned, test, scan_config)
    table = result.candidates.copy()
    for column in MEASURE_COLUMNS:
        table[column] = None
    names = dict(part_names or {})
    table, sorted_out, styles = triage_stage(
        result,
        scanned,
        table,
        label_names=label_names,
        judgements=judgements,
        encoder=triage.encoder,
        judge=judge,
        shown=lambda name: shown_name(name, names),
    )
    measurement = None
    if measure is not None and predictor is not None and evaluation is not None:
        table, measurement = _measure(
            result,
            predictor,
            evaluation,
            test,
            measure,
            scan_config.seed,
            table,
            sorted_out,
            styles,
        )
        measurement["evaluated_on"] = evaluated_on
    table = with_shown_names(apply_triage(table, sorted_out), names)
    repairs: list[Any] = []
    fixed = None
    if fix is not None and measure is not None and evaluation is not None:
        from shortcutlab.families.audit.repair.stage import repair_candidates

        features = result.test_features if evaluation is test else result.plan.transform(evaluation)
        fixed, repairs = repair_candidates(
            table,
            result,
            scanned,
            evaluation,
            features,
            train,
            config=fix,
            model=measure.model,
            model_params=measure.params,
            seed=scan_config.seed,
            part_names=names,
            original=original_test,
            progress=progress,
        )
    record = build_record(
        result,
        scanned,
        test,
        table,
        measurement,
        top=top,
        sources=sources or {},
        triage=sorted_out.to_json(train.labels.values),
        part_names=names,
        fix=fixed,
    )
    return AuditResult(scan=result, table=table, record=record, repairs=repairs)


def _split_for_measuring(
    train: AuditInputs, test: AuditInputs | None, measure: MeasureConfig | None, seed: int
) -> tuple[AuditInputs, AuditInputs | None, str]:
    """The rows the scan reads, the rows the model is measured on, and what those are: the test
    table, or without one a stratified held-out share of ``train`` (the scan then reads the
    rest, so no row that ranks a candidate also measures it)."""
    if measure is None or test is not None:
        return train, test, "test"
    scanned, evaluation = holdout_split(train, measure.holdout, seed)
    check_label_counts(scanned, held_out=measure.holdout)
    return (
        scanned,
        evaluation,
        f"a stratified held-out {measure.holdout:.0%} of the data (seed {seed})",
    )


def _measure(
    result: ScanResult,
    predictor: Predictor,
    evaluation: AuditInputs,
    test: AuditInputs | None,
    config: MeasureConfig,
    seed: int,
    table: pd.DataFrame,
    triage: Triage,
    styles: Sequence[MarkerSet] = (),
) -> tuple[pd.DataFrame, dict[str, Any]]:
    # The measurement (scipy.special, the bootstrap) loads only when a model is measured.
    from shortcutlab.families.audit.reliance.measure import (
        INTERVAL_NOTE,
        MeasureSpec,
        measure_candidates,
    )

    # The possible shortcuts first: the label's signal is measured only with slots to spare.
    ordered = table.loc[measurement_order(table, triage)]
    chosen = ordered[
        ordered["significant"].fillna(False).astype(bool)
        & ordered["kind"].isin((*INDICATOR_KINDS, "style"))
    ]
    chosen = chosen.head(config.top)
    # The scan already built the test table's indicators; a held-out share is new to the plan.
    features = result.test_features if evaluation is test else result.plan.transform(evaluation)
    style_of = {style.key: style for style in styles}
    fires = features.columns([row.key for row in chosen.itertuples() if row.kind != "style"])
    for row in chosen.itertuples():
        if row.kind == "style":  # its rows: those with any of its markers
            fires[row.key] = fires_of(features, style_of[row.key])
    phrases: dict[str, Phrases | None] = dict(
        zip(result.train_features.keys, result.train_features.phrases, strict=True)
    )
    phrases |= {key: style.phrases for key, style in style_of.items()}
    specs = [
        MeasureSpec(Candidate.from_row(row, phrases), fires[row.key]) for row in chosen.itertuples()
    ]
    measured = measure_candidates(
        predictor,
        evaluation,
        specs,
        n_resamples=config.n_resamples,
        seed=seed,
        correction=result.config.correction,
        alpha=result.config.alpha,
        redistribution=config.redistribution,
    )
    table["redistribution_note"] = None
    for index, values in zip(chosen.index, measured, strict=True):
        for column in (*MEASURE_COLUMNS, "redistribution_note"):
            table.at[index, column] = values.get(column)
    return table, {
        "model": model_label(config.model, config.params),
        "params": json_safe_params(config.params),
        "rows": len(evaluation),
        "candidates": len(specs),
        "note": INTERVAL_NOTE,
    }


__all__ = [
    "AuditResult",
    "MeasureConfig",
    "holdout_split",
    "load_inputs",
    "run_audit",
]
