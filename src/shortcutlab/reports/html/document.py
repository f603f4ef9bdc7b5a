"""The document a report page is rendered from: sections of blocks, no HTML in it.

Everything from data (texts, labels, names, table cells) stays plain text here; the renderer
escapes it (Jinja2 autoescape, JSON embedded with ``<``/``>``/``&`` escaped, DOM built with
``textContent``). The only markup a block may carry is :attr:`Figure.svg`, which our own
matplotlib code produced.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd


@dataclass
class Facts:
    """Key-value lines (the overview: spec, data, versions, seeds, hashes, wall time)."""

    title: str
    items: list[tuple[str, str]]


@dataclass
class Table:
    """A table from a DataFrame (MultiIndex rows and columns allowed); string cells keep their
    text (``0.066*``), numbers are shown with ``digits`` significant decimals, NaN as ``—``."""

    name: str  # unique within the page: the table's anchor and data-name
    title: str
    frame: pd.DataFrame
    notes: list[str] = field(default_factory=list)
    digits: int = 3
    #: Non-empty: the table starts folded under this line (a ``<details>`` the reader opens).
    collapsed: str = ""


@dataclass
class Figure:
    """An inline SVG figure (markup produced by :mod:`shortcutlab.reports.html.svg`)."""

    name: str
    title: str
    svg: str
    caption: str = ""


@dataclass
class Paragraphs:
    """Plain text paragraphs (a section's explanation, a notice that something is missing)."""

    texts: list[str]


@dataclass
class Span:
    """A character span [start, end) of a text (a recorded cue span, a rationale)."""

    start: int
    end: int


@dataclass
class ExplorerRow:
    """One test row and its anti-test counterpart under a cell's model(s)."""

    row_id: str
    label: str
    test_text: str
    anti_text: str
    test_spans: list[Span]
    anti_spans: list[Span]
    test_prediction: str
    anti_prediction: str
    test_confidence: float | None = None  # the probability of the predicted label
    anti_confidence: float | None = None
    change: str = ""  # "broke" (right on test, wrong on anti), "fixed", "changed" (both wrong)
    group: str = ""  # what the explorer's group filter picks by (a perturbation class); "" for none


@dataclass
class ExplorerCell:
    """A cell of the run (dataset × model × mitigation × shortcut × λ × seed) and its changed pairs."""

    key: str  # unique within the explorer
    title: str
    facts: list[tuple[str, str]]
    rows: list[ExplorerRow]
    omitted: int = 0  # changed pairs left out of the page (the cap), said next to the rows


@dataclass
class RowExplorer:
    """The rows behind a number: per chosen cell, the test/anti-test pairs whose prediction
    changed, cue highlighted, sortable and filterable in the page."""

    name: str
    title: str
    cells: list[ExplorerCell]
    notes: list[str] = field(default_factory=list)
    sides: tuple[str, str] = ("test", "anti-test")  # what the two texts of a row are called
    group_name: str = ""  # names the rows' groups (e.g. "perturbation class")
    groups: list[str] = field(default_factory=list)  # the group filter's choices; [] hides it


@dataclass
class ShadedToken:
    text: str
    weight: float | None  # signed attribution; None for whitespace/punctuation not attributed
    in_cue: bool = False


@dataclass
class ShadedRow:
    """A row's tokens shaded by attribution (SHAP, occlusion, a rationale mask)."""

    row_id: str
    title: str  # e.g. "label joy, predicted joy (p=0.91)"
    tokens: list[ShadedToken]


@dataclass
class ShadedRows:
    """Rows of tokens shaded by attribution; rows without any weight show only their cue marked
    (the audit's example rows)."""

    name: str
    title: str
    rows: list[ShadedRow]
    notes: list[str] = field(default_factory=list)

    @property
    def shaded(self) -> bool:
        """Whether any token carries a weight (the shading legend is shown only then)."""
        return any(token.weight is not None for row in self.rows for token in row.tokens)


Block = Facts | Table | Figure | Paragraphs | RowExplorer | ShadedRows


@dataclass
class Section:
    """A titled part of the page; ``id`` is its anchor (unique within the page)."""

    id: str
    title: str
    blocks: list[Block]
    intro: str = ""


@dataclass
class Report:
    """The whole page. No clock time here: the same run gives a byte-identical page."""

    title: str
    subtitle: str
    sections: list[Section]
