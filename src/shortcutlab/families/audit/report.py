"""Report sections of a ``shortcutlab audit --out`` folder (``audit.json``): what was scanned and
how it was corrected, the ranked candidate table (``audit.csv``'s top rows), leakage and
partial-input baselines, example rows with each top candidate marked, and the model's reliance on
the candidates it was measured on.

Everything comes from ``audit.json``; a value the audit left empty (``null``) is shown as ``—``,
never as 0.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from shortcutlab.data.reading import read_json_object
from shortcutlab.families.audit.run import EXAMPLES_PER_CANDIDATE
from shortcutlab.families.audit.text import interval_text, p_text
from shortcutlab.reports.html.collect import ReportInput, missing
from shortcutlab.reports.html.document import (
    Block,
    Facts,
    Paragraphs,
    Section,
    ShadedRow,
    ShadedRows,
    ShadedToken,
    Table,
)
from shortcutlab.reports.tables import NOT_MEASURED

AUDIT_FILE = "audit.json"
AUDIT_KIND = "shortcutlab-audit"
VERSION = 1
# Page budgets; audit.csv keeps every candidate.
CANDIDATES_ON_PAGE = 50
CANDIDATES_WITH_EXAMPLES = 10
CORRECTIONS = {"bh": "Benjamini–Hochberg (false discovery rate)", "holm": "Holm (family-wise)"}


def recognises(path: Path) -> bool:
    audit = read_json_object(Path(path) / AUDIT_FILE)
    return audit is not None and audit.get("kind") == AUDIT_KIND


def title(found: ReportInput) -> tuple[str, str] | None:
    audit = read_json_object(found.path / AUDIT_FILE)
    if audit is None:
        return None
    train = (audit.get("data") or {}).get("train") or {}
    return f"Shortcut audit: {_source_name(train)}", "shortcutlab audit"


def sections(found: ReportInput) -> list[Section]:
    audit = read_json_object(found.path / AUDIT_FILE)
    if audit is None or audit.get("kind") != AUDIT_KIND:
        notice = missing(f"'{found.path}' no longer holds an audit.json.")
        return [Section(id="audit", title="Shortcut audit", blocks=[notice])]
    if audit.get("version") != VERSION:
        notice = missing(
            f"'{found.path / AUDIT_FILE}' has version {audit.get('version')!r}; this shortcutlab "
            f"reads version {VERSION}. Run 'shortcutlab audit' again with this version."
        )
        return [Section(id="audit", title="Shortcut audit", blocks=[notice])]
    candidates = sorted(audit.get("candidates") or [], key=_rank_order)
    found_sections = [
        Section(
            id="audit",
            title="Shortcut audit: ranked candidates",
            intro="Each candidate is an indicator of the training rows (a word, an n-gram, an "
            "attribute value, a surface property, a word list, a metadata value) and the label "
            "it points to, tested against that label's share of all training rows.",
            blocks=[*_overview(audit, candidates), _candidate_table(audit, candidates)],
        ),
        Section(
            id="audit-leakage",
            title="Leakage and partial-input baselines",
            blocks=_leakage_blocks(audit, candidates),
        ),
        Section(
            id="audit-examples",
            title="Example rows of the top candidates",
            intro="Training rows that carry a candidate, where it occurs marked.",
            blocks=_example_blocks(candidates),
        ),
    ]
    if audit.get("measurement"):
        found_sections.append(
            Section(
                id="audit-measurement",
                title=f"Reliance of {audit['measurement'].get('model', 'the model')} on the "
                "candidates",
                blocks=_measurement_blocks(audit["measurement"], candidates),
            )
        )
    return found_sections


def _overview(audit: Mapping[str, Any], candidates: list[dict[str, Any]]) -> list[Block]:
    data = audit.get("data") or {}
    rows = data.get("rows") or {}
    counts = data.get("label_counts") or {}
    labels = [str(label) for label in data.get("labels") or []]
    correction = audit.get("correction") or {}
    method = correction.get("method")
    significant = audit.get("significant_total")
    total = audit.get("candidates_total")
    items = [
        ("training data", _source_text(data.get("train"), rows.get("train"))),
        ("test data", _source_text(data.get("test"), rows.get("test"))),
        ("pairs", "yes: text and text_pair scanned separately" if data.get("paired") else "no"),
        ("labels (training rows)", _label_counts(labels, counts.get("train"))),
    ]
    if counts.get("test") is not None:
        items.append(("labels (test rows)", _label_counts(labels, counts.get("test"))))
    items += [
        ("correction", CORRECTIONS.get(method, str(method)) if method else NOT_MEASURED),
        ("alpha", _plain(correction.get("alpha"))),
        ("tests counted", _plain(correction.get("tests"))),
        ("significant", f"{_plain(significant)} of {_plain(total)} candidates tested"),
        ("seed", _plain(audit.get("seed"))),
    ]
    blocks: list[Block] = [Facts(title="Scanned data", items=items)]
    features = _scalar_items(audit.get("features") or {})
    if features:
        blocks.append(Facts(title="Features fitted on the training rows", items=features))
    return blocks


def _candidate_table(audit: Mapping[str, Any], candidates: list[dict[str, Any]]) -> Block:
    if not candidates:
        return missing("The scan found no candidate with enough support to test.")
    shown = candidates[:CANDIDATES_ON_PAGE]
    alpha = (audit.get("correction") or {}).get("alpha")
    frame = pd.DataFrame(
        [
            {
                "rank": _plain(c.get("rank")),
                "candidate": str(c.get("candidate")),
                "kind": str(c.get("kind")),
                "label": _optional(c.get("label")),
                "support": _optional(c.get("support")),
                "lift": _number(c.get("lift"), 2),
                "p": p_text(c.get("p_value")),
                "adjusted p": _marked_p(c.get("p_adjusted"), c.get("significant")),
                "drift p (adjusted)": p_text(c.get("drift_p_adjusted")),
                "model Δ [95 %]": interval_text(
                    c.get("delta"), c.get("delta_low"), c.get("delta_high")
                ),
                "Δ adjusted p": p_text(c.get("delta_p_adjusted")),
            }
            for c in shown
        ],
        dtype=object,
    ).set_index("rank")
    notes = [
        "label: the one the candidate raises most; lift: P(label | candidate) / P(label) on the "
        "training rows; p: the label distribution of the rows with the candidate against the "
        "rows without it (likelihood-ratio test of independence, K − 1 degrees of freedom); "
        "* adjusted p < alpha "
        f"({_plain(alpha)}) over every test of the scan.",
        "drift p: the candidate's odds ratio with its label in train against test (a different "
        "label mix alone is not drift); model Δ: within each gold label, accuracy on rows where "
        "the candidate agrees with the label minus rows where it disagrees, averaged over labels "
        "by rows; 95 % bootstrap interval over rows of one fit (refitting variance not included).",
    ]
    if len(candidates) > len(shown):
        notes.append(f"The top {len(shown)} of {len(candidates)} candidates; audit.csv holds all.")
    return Table(name="audit-candidates", title="Ranked candidates", frame=frame, notes=notes)


def _leakage_blocks(audit: Mapping[str, Any], candidates: list[dict[str, Any]]) -> list[Block]:
    blocks: list[Block] = []
    leakage = audit.get("leakage")
    found = [c for c in candidates if c.get("kind") == "leakage" and c.get("detail")]
    summary = (leakage or {}).get("summary") or []
    if summary:
        blocks.append(Paragraphs([f"{row['candidate']}: {row['detail']}" for row in summary]))
    elif leakage:
        blocks.append(Facts(title="Duplicates and label conflicts", items=_scalar_items(leakage)))
    if found and not summary:
        blocks.append(Paragraphs([f"{c['candidate']}: {c['detail']}" for c in found]))
    if not leakage and not found:
        blocks.append(missing("The audit wrote no leakage check."))
    baselines = audit.get("partial_input") or []
    if baselines:
        blocks.append(_partial_input_table(baselines))
    elif (audit.get("data") or {}).get("paired"):
        blocks.append(missing("The audit wrote no partial-input baseline for these pairs."))
    return blocks


def _partial_input_table(baselines: Sequence[Mapping[str, Any]]) -> Table:
    frame = pd.DataFrame(
        [
            {
                "baseline": str(b.get("candidate")),
                "rows": _optional(b.get("rows", b.get("support"))),
                "accuracy [95 %]": interval_text(
                    b.get("accuracy"), b.get("accuracy_low"), b.get("accuracy_high"), sign=False
                ),
                "majority accuracy": _number(b.get("majority_accuracy"), 3),
                "majority label": _optional(b.get("majority_label")),
                "p (one-sided McNemar)": p_text(b.get("p_value")),
            }
            for b in baselines
        ],
        dtype=object,
    ).set_index("baseline")
    return Table(
        name="audit-partial-input",
        title="One part of the pair alone against the majority label",
        frame=frame,
        notes=[
            "Accuracy with its Wilson 95 % interval; p: one-sided exact McNemar test of paired "
            "correctness against always predicting the majority label (Gururangan et al. 2018's "
            "hypothesis-only baseline)."
        ],
    )


def _example_blocks(candidates: list[dict[str, Any]]) -> list[Block]:
    with_examples = [c for c in candidates if c.get("examples")][:CANDIDATES_WITH_EXAMPLES]
    if not with_examples:
        return [missing("The audit wrote no example rows.")]
    blocks: list[Block] = []
    for position, candidate in enumerate(with_examples, start=1):
        examples = candidate["examples"][:EXAMPLES_PER_CANDIDATE]
        label = _optional(candidate.get("label"))
        heading = f"{_plain(candidate.get('rank'))}. {candidate.get('candidate')}"
        blocks.append(
            ShadedRows(
                name=f"audit-examples-{position}",
                title=heading + ("" if label is None else f" → {label}"),
                rows=[_example_row(example) for example in examples],
                notes=[]
                if any(e.get("spans") for e in examples)
                else [
                    f"A {candidate.get('kind')} candidate is a property of the whole row: "
                    "nothing to mark."
                ],
            )
        )
    return blocks


def _example_row(example: Mapping[str, Any]) -> ShadedRow:
    part = example.get("part") or "text"
    return ShadedRow(
        row_id=str(example.get("row_id")),
        title=f"row {example.get('row_id')} · label {example.get('label')} · {part}",
        tokens=marked_tokens(str(example.get("text", "")), example.get("spans") or []),
    )


def marked_tokens(text: str, spans: Sequence[Sequence[int]]) -> list[ShadedToken]:
    """``text`` cut into pieces, those inside a ``[start, end)`` span marked; spans outside the
    text, empty or overlapping an earlier one are dropped rather than mis-marked.

    Examples:
        >>> [(t.text, t.in_cue) for t in marked_tokens("I do not know", [[5, 8]])]
        [('I do ', False), ('not', True), (' know', False)]
    """
    tokens: list[ShadedToken] = []
    position = 0
    for start, end in sorted((int(s), int(e)) for s, e in spans):
        if start < position or end > len(text) or start >= end:
            continue
        if start > position:
            tokens.append(ShadedToken(text=text[position:start], weight=None))
        tokens.append(ShadedToken(text=text[start:end], weight=None, in_cue=True))
        position = end
    if position < len(text):
        tokens.append(ShadedToken(text=text[position:], weight=None))
    return tokens


def _measurement_blocks(
    measurement: Mapping[str, Any], candidates: list[dict[str, Any]]
) -> list[Block]:
    blocks: list[Block] = [Facts(title="Measured model", items=_scalar_items(measurement))]
    measured = [c for c in candidates if c.get("aligned_rows") is not None]
    if not measured:
        blocks.append(missing("No candidate had evaluation rows to measure."))
        return blocks
    frame = pd.DataFrame([_measured_row(c) for c in measured], dtype=object).set_index("candidate")
    blocks.append(
        Table(
            name="audit-reliance",
            title="Aligned and conflicting rows, removal, redistribution anti-test",
            frame=frame,
            notes=[
                "aligned: rows where the candidate agrees with the gold label (present on its "
                "label, absent on the others); conflicting: the other rows. Δ: within each gold "
                "label, aligned − conflicting accuracy, averaged over labels by rows (so an "
                "easier label cannot pose as reliance), 95 % bootstrap over rows of one fit "
                "(refitting variance not included); its p: Cochran–Mantel–Haenszel over the "
                "labels; Δ rows: the rows of the labels with at least 10 rows in both groups, "
                "which alone enter Δ. ECE gap: conflicting − aligned expected calibration error "
                "(left out below 200 rows a group: binned ECE is biased upward in small groups).",
                "removal: the candidate's words deleted from the rows that have them (token "
                "and n-gram candidates only); changed: share whose predicted label changed; "
                "shift: mean change of p(candidate's label), 95 % bootstrap; p: exact McNemar, "
                "adjusted over the measured candidates.",
                "anti-test: rows redrawn so the candidate points away from its label (MPS "
                "builder); anti Δ = accuracy on the aligned set − on the anti set.",
            ],
        )
    )
    return blocks


def _measured_row(c: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "candidate": f"{c.get('candidate')} → {c.get('label')}",
        "aligned acc. (rows)": _rate_rows(c.get("aligned_accuracy"), c.get("aligned_rows")),
        "conflicting acc. (rows)": _rate_rows(
            c.get("conflicting_accuracy"), c.get("conflicting_rows")
        ),
        "Δ [95 %]": interval_text(c.get("delta"), c.get("delta_low"), c.get("delta_high")),
        "Δ adjusted p": p_text(c.get("delta_p_adjusted")),
        "Δ rows": _optional(c.get("delta_rows")),
        "ECE gap": _number(c.get("calibration_gap"), 3, signed=True),
        "removal rows": _optional(c.get("removal_rows")),
        "changed": _number(c.get("removal_changed"), 3),
        "acc. before → after": _before_after(
            c.get("removal_accuracy_before"), c.get("removal_accuracy_after")
        ),
        "shift [95 %]": interval_text(
            c.get("removal_label_shift"), c.get("removal_shift_low"), c.get("removal_shift_high")
        ),
        "removal adjusted p": p_text(c.get("removal_p_adjusted")),
        "aligned set acc. (rows)": _rate_rows(
            c.get("aligned_set_accuracy"), c.get("aligned_set_rows")
        ),
        "anti acc. (rows)": _rate_rows(c.get("anti_accuracy"), c.get("anti_rows")),
        "removed acc. (rows)": _rate_rows(c.get("removed_accuracy"), c.get("removed_rows")),
        "anti Δ [95 %]": interval_text(
            c.get("anti_delta"), c.get("anti_delta_low"), c.get("anti_delta_high")
        ),
    }


# --- cell texts: None stays None (rendered —), so nothing unmeasured reads as a number.


def _marked_p(value: float | None, significant: bool | None) -> str | None:
    text = p_text(value)
    return None if text is None else text + ("*" if significant else "")


def _number(value: float | None, digits: int, *, signed: bool = False) -> str | None:
    return None if value is None else f"{value:{'+' if signed else ''}.{digits}f}"


def _rate_rows(rate: float | None, rows: int | None) -> str | None:
    if rows is None:
        return None
    return f"{NOT_MEASURED} (0)" if rate is None else f"{rate:.3f} ({rows})"


def _before_after(before: float | None, after: float | None) -> str | None:
    if before is None or after is None:
        return None
    return f"{before:.3f} → {after:.3f}"


def _optional(value: Any) -> str | None:
    return None if value is None else str(value)


def _plain(value: Any) -> str:
    return NOT_MEASURED if value is None else str(value)


def _rank_order(candidate: Mapping[str, Any]) -> tuple[bool, float]:
    rank = candidate.get("rank")
    return rank is None, float(rank) if rank is not None else 0.0


def _source_name(source: Mapping[str, Any]) -> str:
    path = source.get("path")
    return Path(path).name if path else "in-memory table"


def _source_text(source: Mapping[str, Any] | None, rows: int | None) -> str:
    if not source:
        return f"{NOT_MEASURED} (none given)"
    digest = source.get("sha256")
    described = f"{source.get('path') or 'in-memory table'} ({_plain(rows)} rows"
    return described + (f", sha256 {digest[:12]}…)" if digest else ")")


def _label_counts(labels: list[str], counts: Sequence[int] | None) -> str:
    if counts is None:
        return ", ".join(labels) or NOT_MEASURED
    return ", ".join(f"{label} ({count})" for label, count in zip(labels, counts, strict=False))


def _scalar_items(record: Mapping[str, Any]) -> list[tuple[str, str]]:
    """A JSON object's entries as facts: scalars as they are, lists by length, objects by their
    scalar entries (``near.threshold``); nulls as ``—``."""
    items: list[tuple[str, str]] = []
    for key, value in record.items():
        if isinstance(value, Mapping):
            items += [(f"{key}.{k}", v) for k, v in _scalar_items(value) if "." not in k]
        elif isinstance(value, list):
            shown = (
                ", ".join(map(str, value))
                if all(isinstance(v, str | int | float) for v in value)
                else ""
            )
            items.append((key, shown if value and len(shown) <= 120 else f"{len(value)} entries"))
        else:
            items.append((key, _plain(value)))
    return items
