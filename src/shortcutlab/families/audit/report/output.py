"""Write an audit: ``audit.json`` (the record the report reads) and ``audit.csv`` (tidy, every
candidate tested, plus the partial-input and leakage rows), atomically."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pandas as pd

from shortcutlab.data.writing import atomic_output_dir, write_json, write_table
from shortcutlab.families.audit.report.audit_record import AuditResult
from shortcutlab.families.audit.report.record import AUDIT_CSV, AUDIT_JSON
from shortcutlab.families.audit.scan.candidates import MEASURE_COLUMNS, SCAN_COLUMNS
from shortcutlab.families.audit.triage.groups import TRIAGE_COLUMNS
from shortcutlab.provenance import environment, tool_record


def audit_csv_frame(result: AuditResult) -> pd.DataFrame:
    """The tidy table: SCAN_COLUMNS, MEASURE_COLUMNS when a model was measured, then the
    triage's group, its source and the likely shortcuts' rank (the evidence: audit.json)."""
    columns = [*SCAN_COLUMNS, *(MEASURE_COLUMNS if result.record["measurement"] else ())]
    columns += [column for column in TRIAGE_COLUMNS if column != "group_evidence"]
    return result.table[columns]


def write_audit(
    result: AuditResult,
    out: str | Path,
    *,
    overwrite: bool = False,
    training: pd.DataFrame | None = None,
    columns: Mapping[str, str] | None = None,
) -> Path:
    """Write both files into ``out`` (a new or, with ``overwrite``, replaced folder), and with
    ``audit --fix`` the repaired training sets: ``training`` is the user's training table
    (canonical columns and its others), ``columns`` the user's name of each canonical column."""
    record = dict(result.record)
    record["provenance"] = {"tool": tool_record(), "versions": environment()}
    frame = audit_csv_frame(result)
    with atomic_output_dir(out, overwrite=overwrite) as folder:
        write_json(folder / AUDIT_JSON, record)
        # Empty cells, never "nan": a value a kind has no meaning for is missing, not zero.
        write_table(frame, folder / AUDIT_CSV, for_people=True)
        if result.repairs and training is not None:
            from shortcutlab.families.audit.repair.output import write_repairs

            write_repairs(folder, result.repairs, training, columns or {})
    return Path(out)
