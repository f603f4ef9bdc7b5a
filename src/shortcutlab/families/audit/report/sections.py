"""Report sections of a ``shortcutlab audit --out`` folder (``audit.json``): the triage's three
lists and the recommended repairs (:mod:`.triage`), the ranked candidate table
(``audit.csv``'s top rows, :mod:`.candidate_table`), what was scanned and how it was corrected,
leakage and partial-input baselines, example rows with each top candidate marked, the model's
reliance on the candidates it was measured on, and the repair tables.

Everything comes from ``audit.json``; a value the audit left empty (``null``) is shown as ``—``,
never as 0.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from shortcutlab.data.reading import read_json_object
from shortcutlab.errors import DataError
from shortcutlab.families.audit.report.candidate_table import (
    candidate_table,
    candidate_table_notes,
    is_triaged,
    ranked,
)
from shortcutlab.families.audit.report.cells import (
    label_counts,
    number,
    optional,
    plain,
    scalar_items,
    source_text,
)
from shortcutlab.families.audit.report.record import (
    AUDIT_JSON,
    AUDIT_KIND,
    EXAMPLES_PER_CANDIDATE,
    AuditRecord,
    read_record,
)
from shortcutlab.families.audit.report.reliance import measurement_blocks
from shortcutlab.families.audit.report.repair import fix_section
from shortcutlab.families.audit.report.text import interval_text, p_text
from shortcutlab.families.audit.report.triage import triage_section
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

CANDIDATE_INTRO = (
    "Each candidate is an indicator of the training rows (a word, an n-gram, an attribute value, "
    "a surface property, a word list, a metadata value) and the label it points to, tested "
    "against that label's share of all training rows."
)
NO_TRIAGE = (
    "This audit has no triage into likely shortcuts, label signal and needs your judgement (it "
    "was written before the audit sorted its candidates); run 'shortcutlab audit' again for it."
)
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


def record_title(audit: AuditRecord | Mapping[str, Any]) -> str:
    """The page's title: the audited file's name."""
    train = (audit.get("data") or {}).get("train") or {}
    return f"Shortcut audit: {_source_name(train)}"


def sections(found: ReportInput) -> list[Section]:
    try:
        audit = read_record(found.path)
    except DataError as exc:  # changed since it was recognised: the page says so
        return [Section(id="audit", title="Shortcut audit", blocks=[missing(str(exc))])]
    return record_sections(audit)


def record_sections(audit: AuditRecord) -> list[Section]:
    """The sections of an audit record (``audit.json``, or :attr:`AuditResult.record` before it
    is written). A triaged record opens with its three lists (and the recommended repairs), then
    the ranked table and the scanned data; an older one keeps the ranked table's layout."""
    candidates = ranked(audit.get("candidates") or [])
    ranked_blocks: list[Block] = _candidate_tables(audit, candidates)
    if is_triaged(audit):
        found_sections = [
            triage_section(audit, candidates),
            Section(
                id="audit-ranked",
                title="Ranked candidates and the scanned data",
                intro=CANDIDATE_INTRO,
                blocks=[*ranked_blocks, *_overview(audit)],
            ),
        ]
    else:
        found_sections = [
            Section(
                id="audit",
                title="Shortcut audit: ranked candidates",
                intro=CANDIDATE_INTRO,
                blocks=[missing(NO_TRIAGE), *_overview(audit), *ranked_blocks],
            )
        ]
    found_sections += [
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


def _overview(audit: Mapping[str, Any]) -> list[Block]:
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


def _candidate_tables(audit: Mapping[str, Any], candidates: list[dict[str, Any]]) -> list[Block]:
    """The compact ranked table (it fits a 1,400-pixel window), then every column folded."""
    if not candidates:
        return [missing("The scan found no candidate with enough support to test.")]
    shown = min(len(candidates), CANDIDATES_ON_PAGE)
    capped = (
        [f"The top {shown} of {len(candidates)} candidates; audit.csv holds all."]
        if len(candidates) > shown
        else []
    )
    return [
        Table(
            name="audit-candidates",
            title="Ranked candidates",
            frame=candidate_table(audit, top=shown),
            notes=[*candidate_table_notes(audit), *capped],
        ),
        Table(
            name="audit-candidates-all",
            title="Ranked candidates, every column",
            frame=candidate_table(audit, top=shown, full=True),
            notes=[*candidate_table_notes(audit, full=True), *capped],
            collapsed="Every column of the ranked candidates (audit.csv has them all)",
        ),
    ]


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


def _source_name(source: Mapping[str, Any]) -> str:
    path = source.get("path")
    return Path(path).name if path else "in-memory table"
