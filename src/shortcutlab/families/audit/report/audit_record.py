"""``audit.json``'s record, assembled in one place from the scan, the triage, the measurement
and the repairs; the report, the CLI tables and the findings read it.
:class:`AuditResult` carries it with the scan, the ranked table and the repairs: what
``run_audit`` returns and :mod:`.output` writes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from shortcutlab.families.audit.report.examples import candidate_examples
from shortcutlab.families.audit.report.long_table import audit_long_table
from shortcutlab.families.audit.report.part_names import shown_detail, shown_name
from shortcutlab.families.audit.report.record import AUDIT_KIND, AUDIT_VERSION, AuditRecord
from shortcutlab.families.audit.report.sections import record_sections, record_title
from shortcutlab.families.audit.scan.candidates import (
    INDICATOR_KINDS,
    MEASURE_COLUMNS,
    SCAN_COLUMNS,
)
from shortcutlab.families.audit.scan.inputs import AuditInputs
from shortcutlab.families.audit.scan.stage import ScanResult
from shortcutlab.families.audit.triage.groups import TRIAGE_COLUMNS
from shortcutlab.reports.html.notebook import blocks_view


@dataclass(repr=False)  # a short __repr__ below
class AuditResult:
    """The scan, the measurement (when a model was given) and the record written as audit.json."""

    scan: ScanResult
    table: pd.DataFrame  # SCAN_COLUMNS + MEASURE_COLUMNS, ranked
    record: AuditRecord
    #: With --fix: the recommended repair of each candidate (families/audit/repair/stage.py).
    repairs: list[Any] = field(default_factory=list)

    def to_pandas(self, *, wide: bool = False) -> pd.DataFrame:
        """The long, tidy table: one row per candidate × split × metric (columns in the
        glossary, "The tidy table"); ``wide=True``: a copy of :attr:`table`, one row per
        candidate with its figures as columns."""
        if wide:
            return self.table.copy()
        model = (self.record.get("measurement") or {}).get("model")
        return audit_long_table(
            self.table,
            dataset=self._train_path(),
            model=model if model is None or isinstance(model, str) else type(model).__name__,
        )

    def _train_path(self) -> str | None:
        """The training file read (None for a table passed in memory)."""
        return (self.record["data"].get("train") or {}).get("path")

    def __repr__(self) -> str:
        return (
            f"AuditResult(train={self._train_path() or 'in memory'!r}, "
            f"rows={self.record['data']['rows']}, candidates={self.record['candidates_total']}, "
            f"significant={self.record['significant_total']}, repairs={len(self.repairs)})"
        )

    def _repr_html_(self) -> str:
        """The notebook view: the facts and tables of the audit's report sections."""
        blocks = [block for section in record_sections(self.record) for block in section.blocks]
        return blocks_view(record_title(self.record), blocks)


def build_record(
    result: ScanResult,
    train: AuditInputs,
    test: AuditInputs | None,
    table: pd.DataFrame,
    measurement: dict[str, Any] | None,
    *,
    top: int,
    sources: Mapping[str, Any],
    triage: dict[str, Any],
    part_names: Mapping[str, str],
    fix: dict[str, Any] | None = None,
) -> AuditRecord:
    """The record: the data, the configuration, the kept candidates (``table``'s names already
    the user's), leakage, partial inputs (named by the user's columns), the measurement, the
    triage's summary and (with ``--fix``) the repairs."""
    labels = train.labels
    counts = {"train": np.bincount(train.ranks, minlength=len(labels)).tolist()}
    if test is not None:
        counts["test"] = np.bincount(test.ranks, minlength=len(labels)).tolist()
    ranked = _recorded(table, top)
    fires = result.train_features.columns(
        [row.key for row in ranked.itertuples() if row.kind in INDICATOR_KINDS]
    )
    candidates = []
    for row in ranked.itertuples():
        entry = {
            column: _json_value(getattr(row, column))
            for column in (*SCAN_COLUMNS, *MEASURE_COLUMNS, *TRIAGE_COLUMNS)
            if column != "group_evidence"
        }
        entry["group_evidence"] = row.group_evidence or []
        entry["redistribution_note"] = _json_value(getattr(row, "redistribution_note", None))
        entry["examples"] = candidate_examples(result, train, row, fires.get(row.key))
        candidates.append(entry)
    record: AuditRecord = {
        "kind": AUDIT_KIND,
        "version": AUDIT_VERSION,
        "data": {
            # The report's overview names these files (data.train, data.test).
            "train": sources.get("train"),
            "test": sources.get("test"),
            "rows": {"train": len(train)} | ({"test": len(test)} if test is not None else {}),
            "paired": train.paired,
            "labels": labels.to_json(),
            "label_counts": counts,
            "columns": dict(part_names),
        },
        "config": result.config.to_json(),
        "seed": result.config.seed,
        "correction": {
            "method": result.config.correction,
            "alpha": result.config.alpha,
            "tests": result.tests,
        },
        "features": result.plan.config(),
        "candidates_total": int(table["rank"].notna().sum()),
        "significant_total": int(table["significant"].fillna(False).astype(bool).sum()),
        "candidates": candidates,
        "leakage": {
            "summary": [
                {k: _json_value(v) for k, v in row.items()}
                for row in result.leakage.summary_rows(labels)
            ],
            **result.leakage.to_json(train, test),
        },
        # Named by the user's columns ("hypothesis: not"), as the candidates are.
        "partial_input": [
            {k: _json_value(v) for k, v in row.items()}
            | {
                "candidate": shown_name(row["candidate"], part_names),
                "detail": shown_detail(row["detail"], part_names),
            }
            for row in result.partial_input
        ],
        "measurement": measurement,
        "triage": triage,
    }
    if fix is not None:
        record["fix"] = fix
    return record


def _recorded(table: pd.DataFrame, top: int) -> pd.DataFrame:
    """The candidates audit.json keeps: the scan's ``top`` and the first ``top`` of each group
    (a likely shortcut ranked 30th by association is still the one a person must see), in the
    scan's order."""
    ranked = table[table["rank"].notna()]
    keep = np.zeros(len(ranked), dtype=bool)
    keep[:top] = True
    for group in ("shortcut", "signal", "judgement"):
        members = np.flatnonzero((ranked["group"] == group).to_numpy())
        if group == "shortcut":
            order = ranked["shortcut_rank"].to_numpy()[members]
            members = members[np.argsort(order.astype(float), kind="stable")]
        keep[members[:top]] = True
    return ranked[keep]


def _json_value(value: Any) -> Any:
    if value is None:
        return None
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not np.isfinite(value):
        return None
    try:
        if pd.isna(value):
            return None
    except (TypeError, ValueError):
        pass
    return value
