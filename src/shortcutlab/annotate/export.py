"""``shortcutlab annotate export FOLDER``: a task's answers as CSV and its summary as JSON and
Markdown, written into the task folder (by default RUN/annotations/KIND/, where the report finds
it). Nothing is written when there is no answer yet or anything fails: every file is made in
memory first, then each is written to a temporary name and renamed into place.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from shortcutlab.annotate.export_files import ANSWERS, MARKER, SUMMARY_JSON, SUMMARY_MD
from shortcutlab.annotate.kinds import Summary, TaskPlan
from shortcutlab.annotate.store import ANSWER_COLUMNS, AnnotationStore
from shortcutlab.annotate.summary import with_common_tables
from shortcutlab.annotate.tasks import task_kind
from shortcutlab.data.csv_text import csv_text
from shortcutlab.data.writing import check_folder_path, follow_umask
from shortcutlab.errors import DataError
from shortcutlab.reports.tables import to_markdown

MISSING = "—"


@dataclass
class ExportedSummary:
    """What summary.json holds, read back: the tables as DataFrames."""

    kind: str
    title: str
    source: str
    facts: dict[str, Any]
    tables: dict[str, tuple[str, pd.DataFrame]]
    notes: list[str]


def task_summary(folder: str | Path) -> tuple[TaskPlan, pd.DataFrame, Summary]:
    """The task's plan, its answers and their summary (with progress and agreement)."""
    with AnnotationStore.open(folder) as store:
        plan, answers = store.plan(), store.answers()
    if answers.empty:
        raise DataError(
            f"'{folder}' has no answers yet; annotate some items with 'shortcutlab annotate serve' "
            "first, then export."
        )
    summary = task_kind(plan.kind).summarise(plan, answers)
    return plan, answers, with_common_tables(summary, plan, answers)


def export_task(folder: str | Path, *, out: str | Path | None = None) -> list[Path]:
    """Write answers.csv, summary.json, summary.md and the kind's own files (shortcut-or-signal:
    judgements.yaml) into ``out`` (default: the task folder); returns their paths. A DataError, and nothing written, when the task has no answer."""
    folder = Path(folder)
    plan, answers, summary = task_summary(folder)
    target = Path(out) if out is not None else folder
    contents = {
        ANSWERS: answers_csv(plan, answers),
        SUMMARY_JSON: json.dumps(
            summary_record(plan, answers, summary), indent=2, ensure_ascii=False, allow_nan=False
        )
        + "\n",
        SUMMARY_MD: summary_markdown(plan, summary),
    } | task_kind(plan.kind).extra_exports(plan, answers)
    check_folder_path(target)
    target.mkdir(parents=True, exist_ok=True)
    staged = []
    try:
        for name, text in contents.items():
            handle, temporary = tempfile.mkstemp(prefix=f".{name}.", suffix=".partial", dir=target)
            with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
                stream.write(text)
            staged.append((Path(temporary), target / name))
            follow_umask(Path(temporary))
    except BaseException:
        for temporary, _ in staged:
            temporary.unlink(missing_ok=True)
        raise
    for temporary, path in staged:
        os.replace(temporary, path)
    return [path for _, path in staged]


def answers_csv(plan: TaskPlan, answers: pd.DataFrame) -> str:
    """One row per item × annotator × field, then the item's reference columns (``ref_*``)."""
    reference = {item.item_id: item.reference for item in plan.items}
    keys = sorted({key for ref in reference.values() for key in ref})
    table = answers[ANSWER_COLUMNS].copy()
    for key in keys:
        table[f"ref_{key}"] = [_cell(reference[i].get(key)) for i in table["item_id"]]
    return csv_text(table, for_people=True)


def summary_record(plan: TaskPlan, answers: pd.DataFrame, summary: Summary) -> dict[str, Any]:
    return {
        "format": MARKER,
        "kind": summary.kind,
        "title": summary.title,
        "source": plan.source,
        "facts": plan.facts,
        "items": len(plan.items),
        "annotators": sorted(answers["annotator"].unique().tolist()),
        "tables": {
            name: {"title": title} | frame_record(frame)
            for name, (title, frame) in summary.tables.items()
        },
        "notes": summary.notes,
    }


def frame_record(frame: pd.DataFrame) -> dict[str, Any]:
    return {
        "index_names": [n for n in frame.index.names],
        "column_names": [n for n in frame.columns.names],
        "index": [_key(k) for k in frame.index],
        "columns": [_key(k) for k in frame.columns],
        "data": [[_value(v) for v in row] for row in frame.itertuples(index=False, name=None)],
    }


def frame_from_record(record: dict[str, Any]) -> pd.DataFrame:
    def axis(keys: list[Any], names: list[Any]) -> pd.Index:
        if len(names) > 1:
            return pd.MultiIndex.from_tuples([tuple(k) for k in keys], names=names)
        return pd.Index(keys, name=names[0])

    data = [[float("nan") if v is None else v for v in row] for row in record["data"]]
    return pd.DataFrame(
        data,
        index=axis(record["index"], record["index_names"]),
        columns=axis(record["columns"], record["column_names"]),
    )


def load_summary(folder: str | Path) -> ExportedSummary:
    """summary.json of a task folder, read back (a DataError naming the fix when unreadable)."""
    path = Path(folder) / SUMMARY_JSON
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
        return ExportedSummary(
            kind=record["kind"],
            title=record["title"],
            source=record["source"],
            facts=record["facts"],
            tables={n: (t["title"], frame_from_record(t)) for n, t in record["tables"].items()},
            notes=record["notes"],
        )
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise DataError(
            f"'{path}' is not an annotation summary ({exc}); run 'shortcutlab annotate export "
            f"{Path(folder)}' again."
        ) from exc


def summary_markdown(plan: TaskPlan, summary: Summary) -> str:
    lines = [
        f"# {summary.title}",
        "",
        f"Task: {summary.kind} over `{plan.source}`, {len(plan.items)} items.",
        "",
    ]
    for title, frame in summary.tables.values():
        shown = frame.astype(object).where(frame.notna(), MISSING)
        lines += [f"## {title}", "", to_markdown(shown)]
    lines += [f"- {note}" for note in summary.notes]
    return "\n".join(lines).rstrip("\n") + "\n"


def _key(key: Any) -> Any:
    return [_value(k) for k in key] if isinstance(key, tuple) else _value(key)


def _value(value: Any) -> Any:
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def _cell(value: Any) -> Any:
    return (
        json.dumps(value, sort_keys=True, ensure_ascii=False)
        if isinstance(value, dict | list)
        else value
    )


__all__ = [
    "ANSWERS",
    "MARKER",
    "SUMMARY_JSON",
    "SUMMARY_MD",
    "ExportedSummary",
    "export_task",
    "frame_from_record",
    "load_summary",
    "task_summary",
]
