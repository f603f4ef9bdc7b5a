"""The HTML renderer: escaping, spans of MultiIndex tables, — for NaN, no URLs, determinism."""

from __future__ import annotations

import html
import re

import numpy as np
import pandas as pd
import pytest

from shortcutlab.reports.html.document import Facts, Figure, Paragraphs, Report, Section, Table
from shortcutlab.reports.html.render import block_template, render_report, write_report_html
from shortcutlab.reports.html.svg import scoped_ids, svg_markup
from shortcutlab.reports.plots import delta_figure

SCRIPT = "<script>alert(1)</script>"
IMAGE = '"><img src=x onerror=alert(1)>'


def hostile_report() -> Report:
    """Data-made text everywhere a block holds text: titles, facts, index labels, cells, notes."""
    index = pd.MultiIndex.from_tuples(
        [("reviews", SCRIPT, "Test"), ("reviews", SCRIPT, "Δ"), ("other", IMAGE, "Test")],
        names=["dataset", "shortcut", "row"],
    )
    frame = pd.DataFrame(
        [[0.5, np.nan], ["0.125*", 3], [1.0, IMAGE]],
        index=index,
        columns=pd.Index([1.0, 0.6], name="λ"),
    )
    return Report(
        title=f"run {SCRIPT}",
        subtitle=IMAGE,
        sections=[
            Section(
                id="overview",
                title=f"Overview {IMAGE}",
                intro=SCRIPT,
                blocks=[
                    Facts(title=SCRIPT, items=[("spec", IMAGE), (SCRIPT, "x")]),
                    Table(name="t9", title=SCRIPT, frame=frame, notes=[IMAGE]),
                    Paragraphs([SCRIPT, IMAGE]),
                ],
            )
        ],
    )


def test_text_from_data_is_escaped_in_the_written_page(tmp_path):
    path = write_report_html(hostile_report(), tmp_path / "page.html")
    text = path.read_text(encoding="utf-8")
    assert "<script>alert" not in text and "<img" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert "&#34;&gt;&lt;img src=x onerror=alert(1)&gt;" in text
    # The page's own tags are intact: one <script> per inlined JS file only.
    assert text.count("<script") == text.count("</script>")


def test_multiindex_rows_merge_with_rowspans_and_nan_is_a_dash():
    text = render_report(hostile_report())
    body = text[text.index("<tbody>") : text.index("</tbody>")]
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", body, flags=re.S)
    assert len(rows) == 3
    assert '<th scope="row" rowspan="2">reviews</th>' in rows[0]
    assert '<th scope="row" rowspan="2">&lt;script&gt;' in rows[0]
    # The second row's outer levels are covered by the spans above it: only its last level shows.
    assert re.findall(r"<th[^>]*>(.*?)</th>", rows[1]) == ["Δ"]
    cells = [re.findall(r'<td class="num">(.*?)</td>', row) for row in rows]
    assert cells == [
        ["0.500", "—"],
        ["0.125*", "3"],
        ["1.000", "&#34;&gt;&lt;img src=x onerror=alert(1)&gt;"],
    ]
    assert '<tr class="group-start">' in body  # a rule above the second dataset
    head = text[text.index("<thead>") : text.index("</thead>")]
    header_rows = re.findall(r"<tr>(.*?)</tr>", head, flags=re.S)
    assert re.findall(r"<th[^>]*>(.*?)</th>", header_rows[0]) == ["dataset", "shortcut", "row", "λ"]
    assert '<th scope="col" colspan="2" class="num">λ</th>' in header_rows[0]
    assert re.findall(r"<th[^>]*>(.*?)</th>", header_rows[1]) == ["1.0", "0.6"]


def test_two_level_columns_get_colspans():
    columns = pd.MultiIndex.from_product([["Accuracy", "Macro-F1"], ["Test", "Anti", "Δ"]])
    frame = pd.DataFrame(
        [[0.9, 0.5, "0.400*", 0.8, 0.6, 0.2]], index=pd.Index(["m"], name="model"), columns=columns
    )
    text = render_report(Report("t", "", [Section("s", "S", [Table("t1", "T1", frame)])]))
    head = text[text.index("<thead>") : text.index("</thead>")]
    assert '<th scope="col" rowspan="2">model</th>' in head
    assert head.count('colspan="3"') == 2 and head.count(">Anti<") == 2


def test_page_is_self_contained_and_deterministic(tmp_path):
    figure = Figure(
        name="delta",
        title="Δ",
        svg=svg_markup(
            delta_figure(
                pd.DataFrame(
                    {
                        "shortcut": ["a", "a"],
                        "strength": [0.6, 1.0],
                        "estimate": [0.1, 0.3],
                        "ci_low": [0.0, 0.2],
                        "ci_high": [0.2, 0.4],
                    }
                ),
                metric="accuracy",
            ),
            "delta",
        ),
    )
    report = hostile_report()
    twin = Figure(name="delta-again", title="Δ again", svg=figure.svg)  # matplotlib reuses ids
    report.sections.append(Section(id="figures", title="Figures", blocks=[figure, twin]))
    first = write_report_html(report, tmp_path / "a.html").read_bytes()
    second = write_report_html(report, tmp_path / "b.html").read_bytes()
    assert first == second
    text = first.decode("utf-8")
    without_namespaces = re.sub(r'xmlns(:\w+)?="[^"]*"', "", text)
    assert "http://" not in without_namespaces and "https://" not in without_namespaces
    assert "default-src 'none'" in html.unescape(text) and "<svg" in text
    assert "@media print" in text  # the stylesheet is inlined, not linked
    ids = re.findall(r' id="([^"]+)"', text)
    assert len(ids) == len(set(ids)) and "delta-again-axes_1" in ids
    for reference in re.findall(r'(?:url\(#|href="#)([^")]+)', text):
        assert reference in ids
    assert "<link" not in text and " src=" not in text.replace("src=x", "")


def test_scoped_ids_leave_the_figure_text_alone():
    # matplotlib escapes & < > in a <text> element but not quotes, so id="... can be label text.
    import matplotlib.pyplot as plt

    labels = ['a id="q', 'b url(#r) href="#s']
    figure, axes = plt.subplots()
    axes.bar(labels, [1, 2])
    scoped = scoped_ids(svg_markup(figure, "bars"), "bars")
    shown = [html.unescape(text) for text in re.findall(r"<text\b[^>]*>([^<]*)</text>", scoped)]
    assert all(label in shown for label in labels)
    tags = re.findall(r"<[^>]*>", scoped)
    ids = [found for tag in tags for found in re.findall(r'\sid="([^"]+)"', tag)]
    assert "bars-axes_1" in ids and all(found.startswith("bars-") for found in ids)
    references = [r for tag in tags for r in re.findall(r'(?:url\(#|href="#)([^")]+)', tag)]
    assert references and set(references) <= set(ids)


def test_block_templates_are_named_after_the_block_class():
    assert block_template(Facts("t", [])) == "blocks/facts.html.j2"
    assert block_template(Paragraphs([])) == "blocks/paragraphs.html.j2"
    from shortcutlab.reports.html.document import RowExplorer, ShadedRows

    assert block_template(RowExplorer("e", "E", [])) == "blocks/row_explorer.html.j2"
    assert block_template(ShadedRows("s", "S", [])) == "blocks/shaded_rows.html.j2"


def test_a_failed_write_leaves_the_previous_file(tmp_path, monkeypatch):
    target = tmp_path / "report.html"
    target.write_text("before", encoding="utf-8")

    def broken(report):
        raise RuntimeError("render failed")

    monkeypatch.setattr("shortcutlab.reports.html.render.render_report", broken)
    with pytest.raises(RuntimeError):
        write_report_html(hostile_report(), target)
    assert target.read_text(encoding="utf-8") == "before"
    assert [p.name for p in tmp_path.iterdir()] == ["report.html"]
