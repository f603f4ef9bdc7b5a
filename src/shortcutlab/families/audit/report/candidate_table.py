"""The ranked candidate table of an audit record, as the terminal and the HTML report both show it:
one definition of its columns and cell texts (a dash where the audit left a value empty, never 0).

The compact table is what fits a screen: group (when the audit has a triage), candidate, label,
support, lift, p adj., and with a measured model "relied on" and Δ. ``full=True`` adds the
columns a reader looks up: kind, p(label|c), p, the drift columns (with a test table), the
reliance p and the counterfactual tests' flip rates (invariance) with their intervals, Δ's p.

Examples:
    >>> record = {
    ...     "candidates": [{"rank": 1, "candidate": "frankly", "label": 1, "support": 1200,
    ...                     "lift": 1.874, "p_adjusted": 3e-9, "significant": True,
    ...                     "group": "shortcut", "group_source": "evidence"}],
    ...     "data": {"rows": {"train": 600}}, "measurement": None,
    ...     "triage": {"label_names": {"1": "positive"}},
    ... }
    >>> candidate_table(record).iloc[0].tolist()
    ['Likely shortcut', 'frankly', '1 (positive)', '1,200', '1.87', '3e-09*']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from shortcutlab.families.audit.report.text import interval_text, p_text
from shortcutlab.reports.findings_audit import NOT_RELIED_ON, NOT_VISIBLE, RELIED_ON, verdict
from shortcutlab.reports.tables import NOT_MEASURED

#: A candidate's triage group as a table cell and as the title of its list.
GROUP_NAMES = {
    "shortcut": "Likely shortcut",
    "signal": "Label signal",
    "judgement": "Needs your judgement",
}
GROUP_LISTS = {
    "shortcut": "Likely shortcuts",
    "signal": "Label signal",
    "judgement": "Needs your judgement",
}
#: The "relied on" column's short form of each reliance verdict.
RELIED_ON_CELLS = {RELIED_ON: "yes", NOT_RELIED_ON: "no", NOT_VISIBLE: "not visible"}
#: The columns of the compact table, in the full table's order.
COMPACT_COLUMNS = (
    "group",
    "candidate",
    "label",
    "support",
    "lift",
    "p adj.",
    "relied on",
    "Δ [95 %]",
)


def is_triaged(record: Mapping[str, Any]) -> bool:
    """Whether the audit sorted its candidates into groups (records before the triage did not)."""
    return record.get("triage") is not None or any(
        "group" in candidate for candidate in record.get("candidates") or []
    )


def ranked(candidates: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The candidates by rank; those without one (leakage rows) last, in their order."""
    return sorted(candidates, key=lambda c: (c.get("rank") is None, c.get("rank") or 0))


def label_text(label: Any, label_names: Mapping[str, str] | None) -> str:
    """A label value with its name where the audit was given one: ``1 (positive)``.

    Examples:
        >>> label_text(1, {"1": "positive"}), label_text("neg", None), label_text(None, None)
        ('1 (positive)', 'neg', '—')
    """
    if label is None:
        return NOT_MEASURED
    name = (label_names or {}).get(str(label))
    return str(label) if name is None or name == str(label) else f"{label} ({name})"


def label_names(record: Mapping[str, Any]) -> Mapping[str, str] | None:
    return (record.get("triage") or {}).get("label_names")


def group_cell(candidate: Mapping[str, Any]) -> str:
    """``Likely shortcut``; ``(judged)`` added where the user's judgements file put it there."""
    group = candidate.get("group")
    if group is None:
        return NOT_MEASURED
    shown = GROUP_NAMES.get(group, str(group))
    return shown + (" (judged)" if candidate.get("group_source") == "judged" else "")


def candidate_table(
    record: Mapping[str, Any], *, top: int | None = None, full: bool = False
) -> pd.DataFrame:
    """The first ``top`` candidates by rank (all when None), one row each, indexed by rank
    (``#``), every cell text. The group column only for a triaged record; the drift columns only
    with a test table; the model's columns only when one was measured."""
    names = label_names(record)
    shown = ranked(record.get("candidates") or [])[:top]
    rows = [_row(candidate, names) for candidate in shown]
    frame = pd.DataFrame(rows, columns=_columns(record, full=full), dtype=object)
    frame.index = pd.Index([_whole(c.get("rank")) for c in shown], name="#")
    return frame


def _columns(record: Mapping[str, Any], *, full: bool) -> list[str]:
    columns = ["group"] if is_triaged(record) else []
    columns += ["candidate", "kind", "label", "support", "p(label|c)", "lift", "p", "p adj."]
    if "test" in ((record.get("data") or {}).get("rows") or {}):
        columns += ["test lift", "drift p adj."]
    if record.get("measurement"):
        columns += ["relied on", "reliance p adj.", *INVARIANCE_COLUMNS]
        columns += ["Δ [95 %]", "Δ p adj."]
    return columns if full else [c for c in columns if c in COMPACT_COLUMNS]


def _row(c: Mapping[str, Any], names: Mapping[str, str] | None) -> dict[str, str]:
    """Every column of one candidate; the table keeps those its record has."""
    shown = verdict(c.get("visible"), c.get("relied_on"))
    unseen = shown == NOT_VISIBLE  # a candidate the model cannot see gets no reliance figure
    return {
        "group": group_cell(c),
        "candidate": str(c.get("candidate")),
        "kind": _text(c.get("kind")),
        "label": label_text(c.get("label"), names),
        "support": _whole(c.get("support")),
        "p(label|c)": _number(c.get("p_label_given_candidate"), 3),
        "lift": _number(c.get("lift"), 2),
        "p": _p(c.get("p_value")),
        "p adj.": _p(c.get("p_adjusted"))
        + ("*" if c.get("significant") and c.get("p_adjusted") is not None else ""),
        "test lift": _number(c.get("test_lift"), 2),
        "drift p adj.": _p(c.get("drift_p_adjusted")),
        "relied on": RELIED_ON_CELLS.get(shown or "", NOT_MEASURED),
        "reliance p adj.": _p(c.get("reliance_p_adjusted")),
        **{
            f"{test} flips [95 %]": NOT_MEASURED
            if unseen
            else interval_text(*_flips(c, test), sign=False) or NOT_MEASURED
            for test in ("removal", "insertion")
        },
        "Δ [95 %]": interval_text(c.get("delta"), c.get("delta_low"), c.get("delta_high"))
        or NOT_MEASURED,
        "Δ p adj.": _p(c.get("delta_p_adjusted")),
    }


#: The invariance figures: the counterfactual edits' flip rates, beside the reliance verdict.
INVARIANCE_COLUMNS = ("removal flips [95 %]", "insertion flips [95 %]")


def _flips(c: Mapping[str, Any], test: str) -> tuple[Any, Any, Any]:
    return c.get(f"{test}_changed"), c.get(f"{test}_changed_low"), c.get(f"{test}_changed_high")


def candidate_table_notes(record: Mapping[str, Any], *, full: bool = False) -> list[str]:
    """What the table's columns and marks mean (the compact table's, or with ``full`` all)."""
    alpha = (record.get("correction") or {}).get("alpha")
    notes = [
        "label: the one the candidate raises most; lift: P(label | candidate) / P(label) on the "
        "training rows; p adj.: the label distribution of the rows with the candidate against "
        "the rows without it (likelihood-ratio test of independence), adjusted over every test "
        f"of the scan; * below alpha ({_text(alpha)})."
    ]
    if is_triaged(record):
        notes.insert(
            0,
            "group: the audit's triage (Likely shortcut, Label signal, Needs your judgement); "
            "(judged): put there by your judgements file.",
        )
    if full and "test" in ((record.get("data") or {}).get("rows") or {}):
        notes.append(
            "drift p: the candidate's odds ratio with its label in train against test (a "
            "different label mix alone is not drift)."
        )
    if record.get("measurement"):
        notes.append(
            "relied on: the counterfactual tests' verdict (yes: removing or inserting the "
            "candidate moves the predictions its way or costs accuracy, adjusted p < alpha; "
            "not visible: the model's tokenizer or vocabulary drops it; a dash: no test "
            "applies). Δ: association Δ, within each gold label the accuracy on rows where the "
            "candidate agrees with the label minus rows where it disagrees, 95 % bootstrap over "
            "rows of one fit; it compares different rows, so it is no evidence of reliance."
        )
        if full:
            notes.append(
                "reliance p adj.: the smallest p of the counterfactual tests pointing the "
                "candidate's way, adjusted over the measured candidates; removal / insertion "
                "flips (invariance): share of the edited rows whose predicted label changed, "
                "exact 95 % interval."
            )
    return notes


def _text(value: Any) -> str:
    return NOT_MEASURED if value is None else str(value)


def _whole(value: Any) -> str:
    return NOT_MEASURED if value is None else f"{int(value):,}"


def _number(value: Any, digits: int) -> str:
    return NOT_MEASURED if value is None else f"{float(value):.{digits}f}"


def _p(value: Any) -> str:
    return p_text(value) or NOT_MEASURED


__all__ = [
    "COMPACT_COLUMNS",
    "GROUP_LISTS",
    "GROUP_NAMES",
    "candidate_table",
    "candidate_table_notes",
    "is_triaged",
    "label_text",
    "ranked",
]
