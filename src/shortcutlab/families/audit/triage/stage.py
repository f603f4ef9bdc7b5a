"""The triage as one stage of the audit: the scan's table in, its groups and styles out."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pandas as pd

from shortcutlab.families.audit.scan.inputs import AuditInputs
from shortcutlab.families.audit.scan.stage import ScanResult
from shortcutlab.families.audit.triage.groups import TEXT_SAMPLE, Triage, triage_candidates
from shortcutlab.families.audit.triage.judge import LabelJudge
from shortcutlab.families.audit.triage.judgements import Judgements
from shortcutlab.families.audit.triage.styles import (
    MarkerSet,
    add_to_triage,
    marker_sets,
    with_marker_sets,
)


def triage_stage(
    result: ScanResult,
    scanned: AuditInputs,
    table: pd.DataFrame,
    *,
    label_names: Mapping[int, str] | None,
    judgements: Judgements,
    encoder: Any | None,
    judge: LabelJudge | None = None,
    shown: Callable[[str], str],
) -> tuple[pd.DataFrame, Triage, list[MarkerSet]]:
    """``table`` with a row per style, every significant candidate's group and evidence, and the
    styles (their markers read as one finding)."""
    features = result.train_features
    phrases = dict(zip(features.keys, features.phrases, strict=True))
    sorted_out = triage_candidates(
        table,
        phrases=phrases,
        families=dict(zip(features.keys, features.groups, strict=True)),
        # A sample, not every text: at 10 million rows their list alone is 2.5 GB.
        texts=scanned.head("text", TEXT_SAMPLE),
        label_names=label_names,
        judgements=judgements,
        encoder=encoder,
        judge=judge,
        shown=shown,
    )
    styles = marker_sets(table, sorted_out, phrases, features, scanned.ranks)
    table = with_marker_sets(
        table,
        styles,
        features,
        scanned.ranks,
        scanned.labels.values,
        tests=result.tests,
        alpha=result.config.alpha,
    )
    add_to_triage(sorted_out, styles, scanned.labels.values)
    return table, sorted_out, styles
