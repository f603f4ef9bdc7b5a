"""Names and labels print literally in every figure: matplotlib reads text between two ``$`` as
mathtext, so labels such as ``$``, ``$$``, ``$$$`` (price tiers) ended ``report`` and ``results
--out`` in a ParseException, and ``$5 or $10`` came out as italic "5 or ". The mechanism is one
context every figure is drawn in (``save_figure``, ``svg_markup``)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from shortcutlab.explain.explained import RowAttribution
from shortcutlab.families.maze.explain_pictures import row_png
from shortcutlab.families.mps.plots import label_distribution_figure
from shortcutlab.families.suite.plots import predicted_label_figure
from shortcutlab.reports.html.svg import svg_markup
from shortcutlab.reports.plots import delta_figure, save_figure
from tests.cli.refusals import invoke

PRICES = ("$", "$$", "$$$")


def _deltas() -> pd.DataFrame:
    rows = [
        (series, strength, 0.1, 0.05, 0.15)
        for series in ("$5 or $10", "$$")
        for strength in (0.6, 1.0)
    ]
    return pd.DataFrame(rows, columns=["shortcut", "strength", "estimate", "ci_low", "ci_high"])


def _label_counts() -> pd.DataFrame:
    rows = [
        (split, value, label, 40, 1 / 3)
        for split in ("imbalanced", "balanced")
        for value in ("$ cheap", "$$$ dear")
        for label in PRICES
    ]
    return pd.DataFrame(rows, columns=["split", "value", "label", "rows", "share"])


FIGURES = {
    "delta": (lambda: delta_figure(_deltas(), metric="accuracy", title="$ by $$"), "$5 or $10"),
    "mps": (lambda: label_distribution_figure(_label_counts()), "$$$"),
    "suite": (
        lambda: predicted_label_figure(pd.DataFrame([[0.5, 0.3, 0.2]], columns=list(PRICES))),
        "$$",
    ),
}


def _texts(svg: str) -> list[str]:
    """The text elements of an SVG drawn with text kept as text (svg.fonttype none)."""
    return re.findall(r"<text\b[^>]*>([^<]*)</text>", svg)


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_inline_svg_shows_dollar_labels_as_written(name):
    make, label = FIGURES[name]
    assert label in _texts(svg_markup(make(), name))


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_figure_files_with_dollar_labels_are_written(tmp_path, name):
    make, label = FIGURES[name]
    for suffix in (".png", ".svg"):
        path = save_figure(make(), tmp_path / f"{name}{suffix}")
        assert path.stat().st_size > 0
    svg = (tmp_path / f"{name}.svg").read_text()
    assert _glyphs_drawn(svg, label) == len(label)  # spaces are glyphs too


def _glyphs_drawn(svg: str, text: str) -> int:
    """How many glyphs the SVG draws for ``text`` (drawn as paths: a comment holding the text,
    then one <use> per glyph); mathtext would draw none for the dollars and fail on "$$"."""
    after = svg[svg.index(f"<!-- {text} -->") :]
    return after[: after.index("</g>")].count("<use ")


def test_an_explained_row_with_dollar_tokens_is_drawn(tmp_path):
    text = "costs $$ not $$$"
    offsets = [(0, 5), (6, 8), (9, 12), (13, 16)]
    row = RowAttribution(
        row_id=1,
        text=text,
        spans=[(6, 8)],
        group="cue",
        offsets=offsets,
        values=np.array([[0.1, -0.1], [0.5, -0.5], [0.0, 0.0], [-0.2, 0.2]]),
        base=np.array([0.5, 0.5]),
        probabilities=np.array([0.8, 0.2]),
        without_cue=np.array([0.6, 0.4]),
    )
    path = row_png(row, ["$", "$$"], tmp_path / "row.png", model="$model$")
    assert path.stat().st_size > 0


MPS_SPEC = """
family: mps
name: prices
data: {name: prices, train: pool.csv}
attributes: [negation]
mps: {test_size: 100}
models: [{name: tfidf-logreg}]
seeds: [0]
bootstrap: 100
"""


@pytest.mark.slow
def test_results_and_report_of_a_run_with_dollar_labels(tmp_path: Path, corpus):
    pool = corpus["train"][["text", "label"]].copy()
    pool["label"] = pool["label"].map({1: "$", 2: "$", 3: "$$", 4: "$$$", 5: "$$$"})
    pool.to_csv(tmp_path / "pool.csv", index=False)
    (tmp_path / "spec.yaml").write_text(MPS_SPEC)
    ran = invoke("run", tmp_path / "spec.yaml", "--out", tmp_path / "run")
    assert ran.exit_code == 0, ran.output
    results = invoke("results", tmp_path / "run", "--out", tmp_path / "tables")
    assert results.exit_code == 0, results.output
    figures = sorted(p.name for p in (tmp_path / "tables" / "figures").iterdir())
    assert figures == [
        "label_distribution-prices-negation.png",
        "label_distribution-prices-negation.svg",
    ]
    in_run = invoke("results", tmp_path / "run")  # its figures go into the run folder
    assert in_run.exit_code == 0 and len(list((tmp_path / "run" / "figures").iterdir())) == 2
    report = invoke("report", tmp_path / "run")
    assert report.exit_code == 0, report.output
    page = (tmp_path / "run" / "report.html").read_text()
    assert {"$", "$$", "$$$"} <= set(_texts(page))
