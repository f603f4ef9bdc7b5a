"""Summaries of explained rows, on rows whose values are set by hand so every number is known."""

from __future__ import annotations

import html
import re

import numpy as np
import pytest

from shortcutlab.explain import (
    RowAttribution,
    compare,
    rationale_overlap,
    sign_agreement,
    summarize,
    token_table,
    top_token_in_cue,
    word_spans,
)
from shortcutlab.families.maze.explain_pictures import row_html, row_png
from shortcutlab.families.maze.explain_tables import token_frame

LABELS = ("neg", "pos")


def row(
    text, cue, values, *, full=(0.3, 0.7), without=(0.6, 0.4), group="cue", rationale=None, row_id=0
):
    """A row over ``text`` whose cue is ``text[cue[0]:cue[1]]``; ``values`` per token, (label 0, 1)."""
    return RowAttribution(
        row_id=row_id,
        text=text,
        spans=[cue],
        group=group,
        offsets=word_spans(text),
        values=np.array(values, dtype=float),
        base=np.array([0.5, 0.5]),
        probabilities=np.array(full),
        without_cue=np.array(without),
        rationale=rationale,
    )


TEXT = "Honestly, it works."  # tokens: Honestly , it works .


@pytest.fixture
def rows():
    return [
        row(
            TEXT, (0, 10), [[-0.2, 0.2], [0.0, 0.0], [0.1, -0.1], [-0.1, 0.1], [0.0, 0.0]], row_id=1
        ),
        row(
            TEXT,
            (0, 10),
            [[-0.1, 0.1], [-0.1, 0.1], [0.0, 0.0], [0.4, -0.4], [0.0, 0.0]],
            without=(0.2, 0.8),
            row_id=2,
        ),
    ]


def test_table_4_pools_the_cue_tokens_and_the_others_per_label(rows):
    table = token_table(rows, LABELS)
    assert table.index.tolist() == ["cue", "others"]
    assert table.loc["cue", "count"] == 4 and table.loc["others", "count"] == 6
    assert table.loc["cue", "pos"] == pytest.approx((0.2 + 0.0 + 0.1 + 0.1) / 4)
    assert table.loc["others", "neg"] == pytest.approx((0.1 - 0.1 + 0.0 + 0.0 + 0.4 + 0.0) / 6)
    magnitude = token_table(rows, LABELS, absolute=True)
    assert magnitude.loc["others", "pos"] == pytest.approx(0.6 / 6)


def test_cue_sides_get_their_own_rows_in_order_of_appearance():
    text = "I wrote this review in Oslo. Fine."
    values = np.zeros((len(word_spans(text)), 2))
    values[:7, 1] = 0.1  # "I wrote this review in Oslo ."
    city = row(text, (0, 29), values, group="city")
    country = row(text, (0, 29), -values, group="country")
    table = token_table([city, country], LABELS)
    assert table.index.tolist() == ["city", "country", "others"]
    assert table.loc["city", "pos"] == pytest.approx(0.1) and table.loc[
        "country", "pos"
    ] == pytest.approx(-0.1)


def test_top_token_share_and_what_chance_would_give(rows):
    found = top_token_in_cue(rows)
    # Row 1 (predicted pos): |values| peak at "Honestly"; row 2: at "works", not the cue.
    assert found == {"share": 0.5, "chance": pytest.approx(2 / 5)}


def test_sign_agreement_leaves_out_rows_occlusion_does_not_move(rows):
    unchanged = row(TEXT, (0, 10), [[0.0, 0.0]] * 5, without=(0.3, 0.7))
    found = sign_agreement([*rows, unchanged])
    # Row 1: cue SHAP on pos +0.2, occlusion 0.7 - 0.4 = +0.3 (agree); row 2: +0.2 vs -0.1.
    assert found == {"share": 0.5, "rows": 2, "rows_without_change": 1}
    assert sign_agreement([unchanged])["share"] is None


def test_rationale_overlap_counts_visible_characters():
    selected = row(TEXT, (0, 10), [[0.0, 0.0]] * 5, rationale=[(0, 8), (13, 18)])
    found = rationale_overlap([selected])
    # The cue "Honestly, " has 9 visible characters, the rationale keeps 8 of them; it holds 13.
    assert found == {
        "cue_recall": pytest.approx(8 / 9),
        "precision": pytest.approx(8 / 13),
        "rows_touching_cue": 1.0,
        "rows": 1,
    }
    assert rationale_overlap([row(TEXT, (0, 10), [[0.0, 0.0]] * 5)]) is None


def test_summary_and_comparison_on_the_same_rows(rows):
    summary = summarize(rows, LABELS, seed=0)
    assert summary["mean_abs_shap"]["cue"] == pytest.approx(0.1)
    assert summary["mean_abs_shap"]["others"] == pytest.approx(1.2 / 12)
    difference = summary["mean_abs_shap"]["cue_minus_others_per_row"]
    low, high = difference["interval_95"]
    assert low <= difference["mean"] <= high
    assert summary["occlusion"]["predicted_label"] == pytest.approx((0.3 - 0.1) / 2)
    quieter = [
        row(TEXT, (0, 10), np.array(r.values) * 0.5, row_id=r.row_id, without=(0.3, 0.7))
        for r in rows
    ]
    change = compare(rows, quieter, seed=0)
    assert change["cue_abs_shap"]["mean"] == pytest.approx(-0.05)
    assert change["occlusion_total_variation"]["mean"] == pytest.approx(-(0.3 + 0.1) / 2)


def test_the_printed_table_stacks_methods_as_row_blocks(rows):
    results = {
        "labels": list(LABELS),
        "methods": {m: summarize(rows, LABELS, seed=0) for m in ("erm", "jtt")},
    }
    frame = token_frame(results)
    assert frame.columns.tolist() == ["count", "neg", "pos"]
    assert frame.index.get_level_values("method").unique().tolist() == ["erm", "jtt"]
    assert frame.loc[("erm", "cue"), "pos"] == pytest.approx(0.1)


def test_the_html_fragment_escapes_every_text_and_marks_the_cue(tmp_path):
    text = 'Honestly, <b>"bad"</b> & fine.'
    values = np.zeros((len(word_spans(text)), 2))
    values[0, 1] = 0.5
    picture = row(text, (0, 10), values, row_id="<7>")
    fragment = row_html(picture, ["<neg>", "pos"], model="erm")
    assert "<b>" not in fragment and "</b>" not in fragment and "<neg>" not in fragment
    paragraph = re.search(r"<p>(.*)</p>", fragment).group(1)
    assert html.unescape(re.sub(r"<[^>]+>", "", paragraph)) == text  # nothing lost, all escaped
    assert 'data-row-id="&lt;7&gt;"' in fragment
    assert (
        'text-decoration:underline;text-decoration-thickness:2px" title="+0.5000">Honestly<'
        in fragment
    )
    assert fragment.count("underline") == 2  # "Honestly" and its comma
    png = row_png(picture, ["neg", "pos"], tmp_path / "row.png", model="erm")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    again = row_png(picture, ["neg", "pos"], tmp_path / "again.png", model="erm")
    assert png.read_bytes() == again.read_bytes()
