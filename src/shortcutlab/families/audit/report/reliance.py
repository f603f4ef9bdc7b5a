"""The reliance section of the audit report, per measured candidate: the reliance verdict and the
counterfactual tests it rests on (removal, insertion) first, then the association Δ (aligned
against conflicting rows) and the redistribution anti-test."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from shortcutlab.families.audit.report.cells import (
    before_after,
    number,
    optional,
    rate_rows,
    scalar_items,
)
from shortcutlab.families.audit.report.text import interval_text, p_text
from shortcutlab.reports.findings_audit import verdict
from shortcutlab.reports.html.collect import missing
from shortcutlab.reports.html.document import Block, Facts, Table


def measurement_blocks(
    measurement: Mapping[str, Any], candidates: list[dict[str, Any]]
) -> list[Block]:
    blocks: list[Block] = [Facts(title="Measured model", items=scalar_items(measurement))]
    measured = [c for c in candidates if c.get("aligned_rows") is not None]
    if not measured:
        blocks.append(missing("No candidate had evaluation rows to measure."))
        return blocks
    frame = pd.DataFrame([_measured_row(c) for c in measured], dtype=object).set_index("candidate")
    blocks.append(
        Table(
            name="audit-reliance",
            title="Reliance (counterfactual tests), association Δ, redistribution anti-test",
            frame=frame,
            notes=[
                "reliance: 'relied on' when removing the candidate from the rows that have it, "
                "or inserting it into rows of the labels it avoids (at most 500, drawn from the "
                "seed, labels kept), moves the predictions its way (label p: exact McNemar on "
                "the paired 'predicts the candidate's label') or costs accuracy (accuracy p: "
                "exact McNemar on the paired correctness); reliance p: the smallest p of the "
                "tests pointing its way, Bonferroni over the tests run, adjusted over the "
                "measured candidates, below alpha (the per-test p's are each adjusted over the "
                "candidates, for reading); "
                "'not relied on' when a test ran and none did; 'not visible to the model' when "
                "the model's tokenizer drops it or its fitted vocabulary lacks it (no reliance "
                "figure then); a dash where no counterfactual edit applies (attributes, surface "
                "properties, word lists, metadata values). A row counts as having an n-gram only "
                "where its words are adjacent in the model's own tokens.",
                "flips (invariance): share of the edited rows whose predicted label changed, "
                "exact 95 % interval; shift: mean "
                "change of p(candidate's label), 95 % bootstrap.",
                "aligned: rows where the candidate agrees with the gold label (present on its "
                "label, absent on the others); conflicting: the other rows. Association Δ: "
                "within each gold label, aligned − conflicting accuracy, averaged over labels by "
                "rows, 95 % bootstrap over rows of one fit (refitting variance not included); "
                "its p: Cochran–Mantel–Haenszel over the labels with at least 10 rows in both "
                "groups (Δ rows). It compares different rows, so it is no evidence of reliance. "
                "ECE gap: conflicting − aligned expected calibration error (left out below 200 "
                "rows a group).",
                "anti-test: rows redrawn so the candidate points away from its label (MPS "
                "builder); anti Δ = accuracy on the aligned set − on the anti set.",
                *_no_anti_test(measured),
            ],
        )
    )
    return blocks


def _no_anti_test(measured: list[dict[str, Any]]) -> list[str]:
    """Why a measured candidate has no anti-test (the redistribution's own reason)."""
    return [
        f"No anti-test for {c['candidate']}: {c['redistribution_note']}"
        for c in measured
        if c.get("anti_rows") is None and c.get("redistribution_note")
    ]


def _measured_row(c: Mapping[str, Any]) -> dict[str, Any]:
    return (
        {
            "candidate": f"{c.get('candidate')} → {c.get('label')}",
            "reliance": verdict(c.get("visible"), c.get("relied_on")),
            "reliance p (adjusted)": p_text(c.get("reliance_p_adjusted")),
        }
        | _test_cells(c, "removal")
        | _test_cells(c, "insertion")
        | {
            "aligned acc. (rows)": rate_rows(c.get("aligned_accuracy"), c.get("aligned_rows")),
            "conflicting acc. (rows)": rate_rows(
                c.get("conflicting_accuracy"), c.get("conflicting_rows")
            ),
            "association Δ [95 %]": interval_text(
                c.get("delta"), c.get("delta_low"), c.get("delta_high")
            ),
            "assoc. Δ adjusted p": p_text(c.get("delta_p_adjusted")),
            "Δ rows": optional(c.get("delta_rows")),
            "ECE gap": number(c.get("calibration_gap"), 3, signed=True),
            "aligned set acc. (rows)": rate_rows(
                c.get("aligned_set_accuracy"), c.get("aligned_set_rows")
            ),
            "anti acc. (rows)": rate_rows(c.get("anti_accuracy"), c.get("anti_rows")),
            "removed acc. (rows)": rate_rows(c.get("removed_accuracy"), c.get("removed_rows")),
            "anti Δ [95 %]": interval_text(
                c.get("anti_delta"), c.get("anti_delta_low"), c.get("anti_delta_high")
            ),
        }
    )


def _test_cells(c: Mapping[str, Any], test: str) -> dict[str, Any]:
    """One counterfactual test's rows, changed share, accuracy before → after, shift, adjusted p."""
    return {
        f"{test} rows": optional(c.get(f"{test}_rows")),
        f"{test} flips [95 %]": interval_text(
            c.get(f"{test}_changed"),
            c.get(f"{test}_changed_low"),
            c.get(f"{test}_changed_high"),
            sign=False,
        ),
        f"{test} acc. before → after": before_after(
            c.get(f"{test}_accuracy_before"), c.get(f"{test}_accuracy_after")
        ),
        f"{test} shift [95 %]": interval_text(
            c.get(f"{test}_label_shift"), c.get(f"{test}_shift_low"), c.get(f"{test}_shift_high")
        ),
        f"{test} label p (adjusted)": p_text(c.get(f"{test}_label_p_adjusted")),
        f"{test} accuracy p (adjusted)": p_text(c.get(f"{test}_p_adjusted")),
    }
