"""``audit.json``'s record: its names, its shape, and the one reader that checks it.

This module imports nothing heavy: the report checks every folder it is given for ``audit.json``,
and that check must not load the audit's scan (scikit-learn, scipy).

The record is JSON, written once (:func:`~shortcutlab.families.audit.report.audit_record.build_record`)
and read by the report, the CLI's tables, the findings and the annotate task. Its shape is
stated here as TypedDicts, so a type checker reads every key against one declaration while the
record stays the plain mapping ``json`` writes and reads: readers index it as they would the file,
and no conversion layer can drift from the file. :func:`read_record` is the one place a written
record is read back and checked (kind, version, keys).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypedDict

from shortcutlab.errors import DataError

AUDIT_JSON = "audit.json"
AUDIT_CSV = "audit.csv"
#: What audit.json says it is, and the version of its layout the report reads.
AUDIT_KIND = "shortcutlab-audit"
AUDIT_VERSION = 1
EXAMPLES_PER_CANDIDATE = 5


class DataSummary(TypedDict):
    """What was audited: the files (path, sha256, ...; ``test`` None without one), row and label
    counts, the labels, and each part's column as the user named it."""

    train: dict[str, Any] | None
    test: dict[str, Any] | None
    rows: dict[str, int]
    paired: bool
    labels: list[Any]
    label_counts: dict[str, list[int]]
    columns: dict[str, str]


class Correction(TypedDict):
    """The multiple-testing correction over the scan's tests."""

    method: str  # "bh" or "holm"
    alpha: float
    tests: int


class AuditRecord(TypedDict, total=False):
    """``audit.json``. Every key is present but ``fix`` (with ``--fix``), ``provenance`` (added
    where it is written) and ``triage`` (absent from records written before the triage, which
    the report still reads). A candidate is one mapping with the scan's, the measurement's
    and the triage's columns (``scan/candidates.py`` ``SCAN_COLUMNS``, ``MEASURE_COLUMNS``;
    ``triage/groups.py`` ``TRIAGE_COLUMNS``), ``group_evidence``, ``redistribution_note`` and
    ``examples``."""

    kind: str
    version: int
    data: DataSummary
    config: dict[str, Any]
    seed: int
    correction: Correction
    features: dict[str, Any]
    candidates_total: int
    significant_total: int
    candidates: list[dict[str, Any]]
    leakage: dict[str, Any]
    partial_input: list[dict[str, Any]]
    measurement: dict[str, Any] | None
    triage: dict[str, Any]
    fix: dict[str, Any]
    provenance: dict[str, Any]


#: The keys every record holds.
REQUIRED_KEYS = tuple(
    key for key in AuditRecord.__annotations__ if key not in ("fix", "provenance", "triage")
)


def read_record(folder: Path) -> AuditRecord:
    """``folder/audit.json``, checked: a :class:`~shortcutlab.errors.DataError` whose one-line
    message names the problem (missing, not JSON, not an audit's, another version, keys
    missing) and the fix."""
    import json

    path = Path(folder) / AUDIT_JSON
    if not path.is_file():
        raise DataError(f"'{folder}' holds no {AUDIT_JSON}.")
    try:
        loaded = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeError, ValueError) as exc:
        raise DataError(f"'{path}' cannot be read as JSON ({type(exc).__name__}).") from exc
    if not isinstance(loaded, dict) or loaded.get("kind") != AUDIT_KIND:
        raise DataError(f"'{path}' is not an audit's record.")
    if loaded.get("version") != AUDIT_VERSION:
        raise DataError(
            f"'{path}' has version {loaded.get('version')!r}; this shortcutlab reads version "
            f"{AUDIT_VERSION}. Run 'shortcutlab audit' again with this version."
        )
    missing = [key for key in REQUIRED_KEYS if key not in loaded]
    if missing:
        raise DataError(
            f"'{path}' lacks {', '.join(missing[:3])}{' and more' if len(missing) > 3 else ''};"
            " run 'shortcutlab audit' again."
        )
    return loaded  # type: ignore[return-value]
