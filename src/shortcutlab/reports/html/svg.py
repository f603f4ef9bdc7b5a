"""Matplotlib figures as inline SVG markup for a report page: deterministic, no XML prolog.

Each figure gets its own ``svg.hashsalt`` (its name), so the ids matplotlib writes (clip paths,
glyphs) differ between figures on one page and stay the same from run to run.
"""

from __future__ import annotations

import io
import re
from typing import Any

from shortcutlab.reports.plots import literal_text


def svg_markup(figure: Any, name: str) -> str:
    """``figure`` as an ``<svg>`` element (width 100 %, scales with the page); closes it."""
    import matplotlib
    import matplotlib.pyplot as plt

    buffer = io.StringIO()
    # Text stays text (svg.fonttype none): glyph outlines would repeat one id set in every figure.
    with (
        literal_text(figure),
        matplotlib.rc_context({"svg.hashsalt": f"shortcutlab-{name}", "svg.fonttype": "none"}),
    ):
        if figure.get_layout_engine() is None:  # constrained figures lay themselves out
            figure.tight_layout()
        figure.savefig(
            buffer,
            format="svg",
            metadata={"Date": None, "Creator": None, "Format": None, "Type": None},
        )
    plt.close(figure)
    text = buffer.getvalue()
    start = text.index("<svg")
    svg = text[start:].strip()
    # A fixed pixel size would overflow narrow windows and printed pages; the viewBox keeps the ratio.
    head_end = svg.index(">")
    head = svg[:head_end]
    for attribute in ("width", "height"):
        marker = f' {attribute}="'
        if marker in head:
            begin = head.index(marker)
            end = head.index('"', begin + len(marker)) + 1
            head = head[:begin] + head[end:]
    return f'{head} class="figure" role="img">{svg[head_end + 1 :]}'


_ID_PARTS = re.compile(r'(\sid="|url\(#|href="#)([^")]+)')
# A tag, or a comment (skipped): matplotlib escapes > in attribute values, so a tag ends at the
# first >. Character data keeps its quotes unescaped, so a label may read id="... itself.
_MARKUP = re.compile(r"<!--.*?-->|<[^>]*>", re.DOTALL)


def scoped_ids(svg: str, prefix: str) -> str:
    """``svg`` with every element id (and every reference to one) starting with ``prefix``:
    matplotlib names its groups ``figure_1``, ``axes_1`` ... in every figure, and ids must be
    unique within a page. Only tags are rewritten, never the text between them (tick labels)."""

    def scope(tag: re.Match[str]) -> str:
        markup = tag.group(0)
        if markup.startswith("<!--"):
            return markup
        return _ID_PARTS.sub(lambda part: f"{part.group(1)}{prefix}-{part.group(2)}", markup)

    return _MARKUP.sub(scope, svg)
