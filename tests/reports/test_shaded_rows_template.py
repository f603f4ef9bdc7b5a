"""The shaded_rows block template: token shading, the cue underlined, values in titles, and every
text escaped (rows holding markup render as text)."""

from __future__ import annotations

from shortcutlab.reports.html.document import ShadedRow, ShadedRows, ShadedToken
from tests.reports.shaded_rendering import parse_shaded, render_shaded

HOSTILE = "<script>alert(1)</script>"
BREAKOUT = '"><img src=x onerror=alert(1)>'


def _block() -> ShadedRows:
    tokens = [
        ShadedToken("Honestly", 0.4, in_cue=True),
        ShadedToken(", ", None),
        ShadedToken(HOSTILE, -0.1),
        ShadedToken(" ", None),
        ShadedToken(BREAKOUT, 0.2),
        ShadedToken(".", None),
    ]
    return ShadedRows(
        name="rows-erm",
        title=f"erm rows {HOSTILE}",
        rows=[
            ShadedRow(row_id=BREAKOUT, title=f"row {HOSTILE}: predicted 2", tokens=tokens),
            ShadedRow(row_id="zero", title="all zero", tokens=[ShadedToken("flat", 0.0)]),
        ],
        notes=[f"note {BREAKOUT}"],
    )


def test_markup_in_texts_is_escaped():
    markup = render_shaded(_block())
    assert "<script" not in markup and "<img" not in markup
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in markup
    assert "&#34;&gt;&lt;img src=x onerror=alert(1)&gt;" in markup  # also inside data-row-id
    parsed = parse_shaded(markup)
    assert "img" not in parsed.tags and "script" not in parsed.tags
    assert parsed.rows[0]["text"] == f"Honestly, {HOSTILE} {BREAKOUT}."


def test_opacity_follows_the_weight_and_the_cue_is_underlined():
    parsed = parse_shaded(render_shaded(_block()))
    spans = parsed.rows[0]["spans"]
    assert [s["text"] for s in spans] == ["Honestly", HOSTILE, BREAKOUT]
    assert [s["class"] for s in spans] == ["shade pos cue", "shade neg", "shade pos"]
    assert [s["style"] for s in spans] == ["--w:1.000", "--w:0.250", "--w:0.500"]
    assert [s["title"] for s in spans] == ["+0.4000", "-0.1000", "+0.2000"]
    (flat,) = parsed.rows[1]["spans"]  # nothing to scale by: no shading, no division by zero
    assert flat["style"] == "--w:0.000" and flat["title"] == "+0.0000"


def test_the_page_has_a_legend_and_the_notes():
    markup = render_shaded(_block())
    assert "towards the predicted label" in markup and "away from it" in markup
    assert "note &#34;&gt;&lt;img" in markup
    assert markup == render_shaded(_block())
