"""The audit's report on real 'audit --out' folders (report_records.py runs audit_dataset on tiny
tables), rendered by the real report builder and read back from the page's HTML: the triage's
three lists and the recommended repairs first, then the compact ranked table and the scanned
data; an audit written before the triage keeps the old layout and says so."""

from __future__ import annotations

import json
import shutil
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from shortcutlab.errors import ConfigError
from shortcutlab.webreport.build import build_report, write_html_report
from tests.families.audit.report_records import (
    CUE,
    LABEL_NAMES,
    measured_audit,
    paired_audit,
    read_record,
    write_record,
)
from tests.reports.shaded_rendering import parse_shaded

COMPACT = ["#", "group", "candidate", "label", "support", "lift", "p adj.", "relied on", "Δ [95 %]"]
NO_TRIAGE = "This audit has no triage into likely shortcuts, label signal and needs your judgement"


class _Page(HTMLParser):
    """The page's tables (by figure id: rows of cell texts), its headings in page order (h2, h3,
    figure captions, folded summaries), each facts block's lines (by its heading), the texts of
    its paragraphs and of its marks."""

    HEADINGS = ("h2", "h3", "figcaption", "summary")

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tables: dict[str, list[list[str]]] = {}
        self.headings: list[str] = []
        self.facts: dict[str, list[tuple[str, str]]] = {}
        self.paragraphs: list[str] = []
        self.marks: list[str] = []
        self._table: str | None = None
        self._text: list[str] | None = None
        self._mark: list[str] | None = None
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if tag == "figure" and "table" in (attributes.get("class") or ""):
            self._table = str(attributes["id"])
            self.tables[self._table] = []
        elif tag == "tr" and self._table:
            self.tables[self._table].append([])
        elif tag in ("td", "th", "dt", "dd", "p", *self.HEADINGS):
            self._text = []
        elif tag == "mark":
            self._mark = []

    def handle_endtag(self, tag: str) -> None:
        text = "".join(self._text or [])
        if tag == "figure":
            self._table = None
        elif tag in ("td", "th") and self._table:
            self.tables[self._table][-1].append(text)
        elif tag in self.HEADINGS:
            self.headings.append(text)
            if tag == "h3":
                self.facts[text] = []
        elif tag == "dt":
            self.facts[self.headings[-1]].append((text, ""))
        elif tag == "dd":
            key, _ = self.facts[self.headings[-1]][-1]
            self.facts[self.headings[-1]][-1] = (key, text)
        elif tag == "p":
            self.paragraphs.append(text)
        elif tag == "mark" and self._mark is not None:
            self.marks.append("".join(self._mark))
            self._mark = None

    def handle_data(self, data: str) -> None:
        if self._text is not None:
            self._text.append(data)
        if self._mark is not None:
            self._mark.append(data)


def _rows(page: _Page, table: str, key: str) -> dict[str, dict[str, str]]:
    """A table's rows as header -> cell, by the cell under ``key``."""
    header, *body = page.tables[table]
    return {row[header.index(key)]: dict(zip(header, row, strict=True)) for row in body}


def _label(candidate: dict[str, Any]) -> str:
    """How a line names a candidate's label: its value and the name the triage gives it."""
    return f"label {candidate['label']} ({LABEL_NAMES[str(candidate['label'])]})"


def _read(folder: Path, name: str = "report.html") -> tuple[str, _Page]:
    html = write_html_report(folder, folder.parent / f"{folder.name}-{name}").read_text("utf-8")
    return html, _Page(html)


@pytest.fixture(scope="module")
def folders(tmp_path_factory) -> dict[str, Path]:
    """One measured and repaired audit as written, and as a record from before the triage (its
    fields taken out); one scan of pairs (partial inputs, leakage)."""
    root = tmp_path_factory.mktemp("audits")
    triaged = measured_audit(root / "triaged")
    untriaged = root / "untriaged"
    untriaged.mkdir()
    older = read_record(triaged)
    del older["triage"]
    for candidate in older["candidates"]:
        for field in ("group", "group_source", "shortcut_rank", "group_evidence"):
            del candidate[field]
    write_record(untriaged, older)
    return {"triaged": triaged, "untriaged": untriaged, "paired": paired_audit(root / "paired")}


@pytest.fixture(scope="module")
def triaged(folders) -> tuple[str, _Page, dict[str, Any]]:
    html, page = _read(folders["triaged"])
    return html, page, read_record(folders["triaged"])


def test_the_page_opens_with_the_three_lists_then_the_repairs_then_the_scanned_data(triaged):
    html, page, record = triaged
    counts = record["triage"]["counts"]
    lists = [
        f"Likely shortcuts ({counts['shortcut']})",
        f"Label signal ({counts['signal']})",
        f"Needs your judgement ({counts['judgement']})",
    ]
    opening = [
        "Shortcut audit: likely shortcuts, label signal, needs your judgement",
        *lists,
        "Recommended repairs of tfidf-logreg (--fix; the tables are in the Repairs section)",
        "Ranked candidates and the scanned data",
        "Ranked candidates",
        "Every column of the ranked candidates (audit.csv has them all)",
        "Ranked candidates, every column",
        "Scanned data",
        "Features fitted on the training rows",
    ]
    assert page.headings[1 : 1 + len(opening)] == opening  # after the page's contents
    shortcuts = dict(page.facts[lists[0]])
    ranked = sorted(
        (c for c in record["candidates"] if c["shortcut_rank"] is not None),
        key=lambda c: c["shortcut_rank"],
    )
    assert list(shortcuts) == [c["candidate"] for c in ranked]  # in the audit's order
    assert shortcuts["frankly"] == (
        "label 1 (positive) · relied on by tfidf-logreg · 'frankly' is a discourse marker; "
        "such words rarely make a label what it is."
    )
    surface = next(c for c in record["candidates"] if c["kind"] == "surface")
    assert shortcuts[surface["candidate"]].endswith(
        "A surface property (punctuation, casing, length, readability), not what the text says."
    )
    signal = dict(page.facts[lists[1]])
    assert signal["bad"] == (
        "label 0 (negative) · your judgement · relied on by tfidf-logreg · 'bad' carries the "
        "feeling its label 'negative' names (VADER -2.5 and -2.7)."
    )
    assert signal["good"].startswith("label 1 (positive) · relied on by tfidf-logreg · ")
    assert "'good' carries the feeling its label 'positive' names" in signal["good"]
    read = record["triage"]["judgements"]["file"]
    assert read.endswith("judgements.yaml")
    assert f"Judgements from {read}: 1 applied; no candidate is named 'frankyl'." in page.paragraphs
    ((repaired, recommendation),) = page.facts[opening[4]]
    assert repaired == "frankly → 1 (positive)"
    assert recommendation == record["fix"]["targets"][0]["recommendation"]


def test_the_ranked_table_is_compact_with_every_column_folded_below(triaged):
    html, page, record = triaged
    assert page.tables["audit-candidates"][0] == COMPACT
    rows = _rows(page, "audit-candidates", "candidate")
    assert list(rows) == [c["candidate"] for c in record["candidates"]]  # by rank
    written = {c["candidate"]: c for c in record["candidates"]}
    frankly, good = rows["frankly"], written["good"]
    frankly_written = written["frankly"]
    assert [frankly[c] for c in ("#", "group", "label", "support", "relied on")] == [
        str(written["frankly"]["rank"]),
        "Likely shortcut",
        "1 (positive)",
        f"{written['frankly']['support']:,}",
        "yes",
    ]
    assert frankly["p adj."].endswith("*")
    assert rows["bad"]["group"] == "Label signal (judged)"
    assert rows["good"]["Δ [95 %]"] == (
        f"{good['delta']:+.3f} [{good['delta_low']:+.3f}, {good['delta_high']:+.3f}]"
    )
    surface = next(c["candidate"] for c in record["candidates"] if c["kind"] == "surface")
    assert rows[surface]["relied on"] == "—"  # no counterfactual edit of a surface property
    assert not rows["w5"]["p adj."].endswith("*")  # not significant
    cells = {cell for row in rows.values() for cell in row.values()}
    assert not cells & {"0", "0.0", "0.000", "nan", "None"}
    folded = html[html.index('<details class="block folded">') :]
    assert folded.index('id="audit-candidates-all"') < folded.index("</details>")
    every = page.tables["audit-candidates-all"][0]
    assert every[:5] == ["#", "group", "candidate", "kind", "label"]
    assert {
        "p",
        "drift p adj.",
        "removal flips [95 %]",
        "insertion flips [95 %]",
        "Δ p adj.",
    } <= set(every)
    assert _rows(page, "audit-candidates-all", "candidate")["frankly"]["kind"] == "token"
    # the invariance figures beside reliance: the flip rates with their exact intervals
    shown = _rows(page, "audit-candidates-all", "candidate")["frankly"]
    for test in ("removal", "insertion"):
        figures = [frankly_written[f"{test}_changed{end}"] for end in ("", "_low", "_high")]
        assert shown[f"{test} flips [95 %]"] == "{:.3f} [{:.3f}, {:.3f}]".format(*figures)


def test_an_audit_without_triage_says_so_and_keeps_the_old_layout(folders):
    html, page = _read(folders["untriaged"])
    assert html.count(NO_TRIAGE) == 1 and "Likely shortcuts" not in html
    assert page.headings[1:6] == [
        "Shortcut audit: ranked candidates",
        "Scanned data",
        "Features fitted on the training rows",
        "Ranked candidates",
        "Every column of the ranked candidates (audit.csv has them all)",
    ]
    assert page.tables["audit-candidates"][0] == [c for c in COMPACT if c != "group"]
    assert _rows(page, "audit-candidates", "candidate")["frankly"]["label"] == "1"


def test_overview_leakage_and_partial_input_come_from_the_json(folders):
    html, page = _read(folders["paired"])
    record = read_record(folders["paired"])
    counts = record["data"]["label_counts"]["train"]
    assert "in-memory table (600 rows, sha256 " in html
    assert f"contradiction ({counts[0]}), entailment ({counts[1]}), neutral ({counts[2]})" in html
    assert "Benjamini–Hochberg (false discovery rate)" in html
    assert f"{record['significant_total']} of {record['candidates_total']} candidates" in html
    assert "yes: text and text_pair scanned separately" in html
    assert (
        "exact train/test duplicates: 3 of 300 test rows (1.0 %) have a training row with the "
        "same text; 1 of them with another label" in html
    )
    baseline = _rows(page, "audit-partial-input", "baseline")["hypothesis alone"]
    written = next(b for b in record["partial_input"] if b["candidate"] == "hypothesis alone")
    assert baseline["accuracy [95 %]"] == (
        f"{written['accuracy']:.3f} [{written['accuracy_low']:.3f}, {written['accuracy_high']:.3f}]"
    )
    assert baseline["majority label"] == written["majority_label"]
    assert "hypothesis: not" in _rows(page, "audit-candidates", "candidate")


def test_example_rows_are_escaped_with_the_candidate_marked(triaged):
    html, page, _ = triaged
    assert "<frankly>" not in html
    assert '&#34;&lt;<mark class="cue">frankly</mark>&gt;&#34; &amp;' in html
    texts = [row["text"] for row in parse_shaded(html).rows]
    assert any(CUE in text for text in texts)  # the row's text as written, markup and all
    assert page.marks.count("frankly") >= 5  # at least its own five example rows
    assert '<p class="shading-legend">' not in html  # no attribution legend without weights
    assert "nothing to mark" in html  # a surface property marks nothing


def test_the_measurement_and_repair_tables_follow_the_examples(triaged):
    html, page, record = triaged
    frankly = next(c for c in record["candidates"] if c["candidate"] == "frankly")
    row = _rows(page, "audit-reliance", "candidate")["frankly → 1"]
    assert list(row)[:3] == ["candidate", "reliance", "reliance p (adjusted)"]
    assert row["reliance"] == "relied on"
    assert row["aligned acc. (rows)"] == (
        f"{frankly['aligned_accuracy']:.3f} ({frankly['aligned_rows']})"
    )
    assert "Reliance of tfidf-logreg on the candidates" in page.headings
    (target,) = record["fix"]["targets"]
    assert list(_rows(page, "audit-fix-1", "method")) == [
        m["method"] + (" ✓" if m["method"] == target["recommended"] else "")
        for m in target["methods"]
    ]
    assert page.headings.index("Reliance of tfidf-logreg on the candidates") < page.headings.index(
        "Repairs of tfidf-logreg: each against erm"
    )


def test_a_candidate_without_an_anti_test_says_why(folders, tmp_path):
    folder = tmp_path / "no-anti"
    shutil.copytree(folders["triaged"], folder)
    record = read_record(folder)
    measured = next(c for c in record["candidates"] if c["candidate"] == "frankly")
    # As the redistribution writes it when a group is too small to draw from.
    measured |= {"anti_rows": None, "redistribution_note": "too few rows of label 0 with it"}
    write_record(folder, record)
    html, page = _read(folder)
    assert "No anti-test for frankly: too few rows of label 0 with it" in html


def test_the_page_is_deterministic_and_capped(folders, tmp_path):
    folder = tmp_path / "capped"
    shutil.copytree(folders["triaged"], folder)
    first = write_html_report(folder, tmp_path / "a.html").read_bytes()
    assert write_html_report(folder, tmp_path / "b.html").read_bytes() == first
    record = read_record(folder)
    word = next(c for c in record["candidates"] if c["candidate"] == "w5")
    record["candidates"] = [dict(word, rank=rank, candidate=f"w{rank}x") for rank in range(1, 61)]
    record["measurement"] = None
    record.pop("fix")
    write_record(folder, record)
    html, page = _read(folder)
    assert len(page.tables["audit-candidates"]) == 1 + 50
    assert "The top 50 of 60 candidates; audit.csv holds all." in html
    assert "audit-reliance" not in page.tables
    assert page.tables["audit-candidates"][0] == [
        c for c in COMPACT if c not in ("relied on", "Δ [95 %]")
    ]


def test_discovery_in_a_parent_folder_and_what_is_not_an_audit(folders, tmp_path):
    shutil.copytree(folders["triaged"], tmp_path / "audit-out")
    report = build_report(tmp_path)  # the audit folder as a subfolder
    assert [s.id for s in report.sections][0] == "audit-out-audit"
    assert report.title == "Shortcut audit: in-memory table"
    other = tmp_path / "other"
    other.mkdir()
    (other / "audit.json").write_text('{"kind": "something-else"}', encoding="utf-8")
    with pytest.raises(ConfigError, match="holds nothing a report is made from"):
        build_report(other)


def test_an_audit_of_another_version_says_so(tmp_path):
    (tmp_path / "audit.json").write_text(
        json.dumps({"kind": "shortcutlab-audit", "version": 2}), encoding="utf-8"
    )
    html = write_html_report(tmp_path).read_text(encoding="utf-8")
    assert "has version 2; this shortcutlab reads version 1" in html


def test_an_audit_json_cut_short_names_what_it_lacks(folders, tmp_path):
    """The report and the annotate task read audit.json through one reader, which checks its
    keys: a record that lost some says which, instead of failing on the first one missing."""
    record = json.loads((folders["triaged"] / "audit.json").read_text(encoding="utf-8"))
    for key in ("candidates", "leakage", "seed", "partial_input"):
        del record[key]
    (tmp_path / "audit.json").write_text(json.dumps(record), encoding="utf-8")
    html = write_html_report(tmp_path).read_text(encoding="utf-8")
    assert (
        "lacks seed, candidates, leakage and more; run &#39;shortcutlab audit&#39; again." in html
    )
