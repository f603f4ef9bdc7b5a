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
from shortcutlab.families.audit.record import (
    AUDIT_JSON,
    AUDIT_KIND,
    AUDIT_VERSION,
    EXAMPLES_PER_CANDIDATE,
)
from shortcutlab.families.audit.report_cells import (
    label_counts,
    marked_p,
    number,
    optional,
    plain,
    scalar_items,
    source_text,
)
from shortcutlab.families.audit.report_reliance import measurement_blocks
from shortcutlab.families.audit.report_repair import fix_section
from shortcutlab.families.audit.text import interval_text, p_text
from shortcutlab.params import quoted
from shortcutlab.reports.findings_audit import verdict
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

# Page budgets; audit.csv keeps every candidate.
CANDIDATES_ON_PAGE = 50
CANDIDATES_WITH_EXAMPLES = 10
CORRECTIONS = {"bh": "Benjamini–Hochberg (false discovery rate)", "holm": "Holm (family-wise)"}


def recognises(path: Path) -> bool:
    audit = read_json_object(Path(path) / AUDIT_JSON)
    return audit is not None and audit.get("kind") == AUDIT_KIND


def title(found: ReportInput) -> tuple[str, str] | None:
    audit = read_json_object(found.path / AUDIT_JSON)
    if audit is None:
        return None
    return record_title(audit), "shortcutlab audit"


def record_title(audit: Mapping[str, Any]) -> str:
    """The page's title: the audited file's name."""
    train = (audit.get("data") or {}).get("train") or {}
    return f"Shortcut audit: {_source_name(train)}"


def sections(found: ReportInput) -> list[Section]:
    audit = read_json_object(found.path / AUDIT_JSON)
    if audit is None or audit.get("kind") != AUDIT_KIND:
        notice = missing(f"'{found.path}' no longer holds an audit.json.")
        return [Section(id="audit", title="Shortcut audit", blocks=[notice])]
    if audit.get("version") != AUDIT_VERSION:
        notice = missing(
            f"'{found.path / AUDIT_JSON}' has version {quoted(audit.get('version'))}; this shortcutlab "
            f"reads version {AUDIT_VERSION}. Run 'shortcutlab audit' again with this version."
        )
        return [Section(id="audit", title="Shortcut audit", blocks=[notice])]
    return record_sections(audit)


def record_sections(audit: Mapping[str, Any]) -> list[Section]:
    """The sections of an audit record (``audit.json``, or :attr:`AuditResult.record` before it
    is written)."""
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
            blocks=_example_blocks(candidates, (audit.get("data") or {}).get("columns")),
        ),
    ]
    if audit.get("measurement"):
        found_sections.append(
            Section(
                id="audit-measurement",
                title=f"Reliance of {audit['measurement'].get('model', 'the model')} on the "
                "candidates",
                blocks=measurement_blocks(audit["measurement"], candidates),
            )
        )
    if audit.get("fix"):
        found_sections.append(fix_section(audit["fix"]))
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
        ("training data", source_text(data.get("train"), rows.get("train"))),
        ("test data", source_text(data.get("test"), rows.get("test"))),
        ("pairs", "yes: text and text_pair scanned separately" if data.get("paired") else "no"),
        ("labels (training rows)", label_counts(labels, counts.get("train"))),
    ]
    if counts.get("test") is not None:
        items.append(("labels (test rows)", label_counts(labels, counts.get("test"))))
    items += [
        ("correction", CORRECTIONS.get(method, str(method)) if method else NOT_MEASURED),
        ("alpha", plain(correction.get("alpha"))),
        ("tests counted", plain(correction.get("tests"))),
        ("significant", f"{plain(significant)} of {plain(total)} candidates tested"),
        ("seed", plain(audit.get("seed"))),
    ]
    blocks: list[Block] = [Facts(title="Scanned data", items=items)]
    features = scalar_items(audit.get("features") or {})
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
                "rank": plain(c.get("rank")),
                "candidate": str(c.get("candidate")),
                "kind": str(c.get("kind")),
                "label": optional(c.get("label")),
                "support": optional(c.get("support")),
                "lift": number(c.get("lift"), 2),
                "p": p_text(c.get("p_value")),
                "adjusted p": marked_p(c.get("p_adjusted"), c.get("significant")),
                "drift p (adjusted)": p_text(c.get("drift_p_adjusted")),
                "reliance": verdict(c.get("visible"), c.get("relied_on")),
                "association Δ [95 %]": interval_text(
                    c.get("delta"), c.get("delta_low"), c.get("delta_high")
                ),
                "assoc. Δ adjusted p": p_text(c.get("delta_p_adjusted")),
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
        f"({plain(alpha)}) over every test of the scan.",
        "drift p: the candidate's odds ratio with its label in train against test (a different "
        "label mix alone is not drift); reliance: the measured model's verdict from the "
        "counterfactual tests (see the reliance section); association Δ: within each gold label, "
        "accuracy on rows where the candidate agrees with the label minus rows where it "
        "disagrees, averaged over labels by rows; 95 % bootstrap interval over rows of one fit "
        "(refitting variance not included). It compares different rows: no evidence of reliance.",
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
        blocks.append(Facts(title="Duplicates and label conflicts", items=scalar_items(leakage)))
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
                "rows": optional(b.get("rows", b.get("support"))),
                "accuracy [95 %]": interval_text(
                    b.get("accuracy"), b.get("accuracy_low"), b.get("accuracy_high"), sign=False
                ),
                "majority accuracy": number(b.get("majority_accuracy"), 3),
                "majority label": optional(b.get("majority_label")),
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


def _example_blocks(
    candidates: list[dict[str, Any]], columns: Mapping[str, str] | None
) -> list[Block]:
    with_examples = [c for c in candidates if c.get("examples")][:CANDIDATES_WITH_EXAMPLES]
    if not with_examples:
        return [missing("The audit wrote no example rows.")]
    blocks: list[Block] = []
    for position, candidate in enumerate(with_examples, start=1):
        examples = candidate["examples"][:EXAMPLES_PER_CANDIDATE]
        label = optional(candidate.get("label"))
        heading = f"{plain(candidate.get('rank'))}. {candidate.get('candidate')}"
        blocks.append(
            ShadedRows(
                name=f"audit-examples-{position}",
                title=heading + ("" if label is None else f" → {label}"),
                rows=[_example_row(example, columns) for example in examples],
                notes=[]
                if any(e.get("spans") for e in examples)
                else [
                    f"A {candidate.get('kind')} candidate is a property of the whole row: "
                    "nothing to mark."
                ],
            )
        )
    return blocks


def _example_row(example: Mapping[str, Any], columns: Mapping[str, str] | None) -> ShadedRow:
    part = example.get("part") or "text"
    part = (columns or {}).get(part, part)
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


def _rank_order(candidate: Mapping[str, Any]) -> tuple[bool, float]:
    rank = candidate.get("rank")
    return rank is None, float(rank) if rank is not None else 0.0


def _source_name(source: Mapping[str, Any]) -> str:
    path = source.get("path")
    return Path(path).name if path else "in-memory table"
