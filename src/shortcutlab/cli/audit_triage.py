"""The audit's terminal opening: the three lists of the triage, then one sentence per repair.

What a person reads first (issue 35): how many candidates are likely shortcuts, label signal or
need a judgement, one line each; the wide candidate and repair tables follow with --details.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Console

from shortcutlab.families.audit.report.candidate_table import label_names, label_text, ranked
from shortcutlab.families.audit.report.repair import recommended_repairs
from shortcutlab.families.audit.report.triage import triage_lists, triage_notes

#: Lines shown per list; the rest are counted (audit.csv and report.html have them all).
LIST_LINES = 10


def print_triage(console: Console, record: Mapping[str, Any]) -> None:
    """The three lists with their counts, a line per candidate, the judgements applied and
    the LLM judge asked."""
    for title, count, items in triage_lists(record, ranked(record["candidates"])):
        console.print(f"{title} ({count})", style="bold", markup=False)
        for name, line in items[:LIST_LINES]:
            console.print(f"  {name}: {line}", markup=False, soft_wrap=True)
        if count > min(len(items), LIST_LINES):
            console.print(
                f"  … {count - min(len(items), LIST_LINES)} more (--details, audit.csv, "
                "report.html)",
                markup=False,
            )
        if not count:
            console.print("  none", markup=False)
    triage = record.get("triage") or {}
    for said in triage_notes(triage):
        console.print(said, markup=False, soft_wrap=True)


def print_recommendations(console: Console, record: Mapping[str, Any]) -> None:
    """One sentence per repaired candidate: what --fix recommends (the tables: --details)."""
    fix = record["fix"]
    names = label_names(record)
    facts = recommended_repairs(fix, lambda label: label_text(label, names))
    model = fix.get("model", "the model")
    console.print(f"\nRecommended repairs of {model} (--fix)", style="bold", markup=False)
    for name, sentence in facts.items:
        console.print(f"  {name}: {sentence}", markup=False, soft_wrap=True)
