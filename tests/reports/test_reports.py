import io
import json

import pandas as pd
import pytest

from shortcutlab.errors import ConfigError
from shortcutlab.families.maze.build import build_maze_benchmark
from shortcutlab.families.maze.evaluate import evaluate_benchmark, family_frame
from shortcutlab.reports import (
    maze_table,
    per_label_table,
    plot_delta_vs_strength,
    result_table,
    to_markdown,
)
from shortcutlab.reports.tables import render, table_notes, tidy_text


@pytest.fixture(scope="module")
def results(corpus):
    out = []
    for shortcut in ("single-term", "concept-occurrence"):
        for strength in (1.0, 0.6):
            bench = build_maze_benchmark(
                corpus["train"], corpus["test"], shortcut=shortcut, strength=strength
            )
            out.append(evaluate_benchmark(bench, seeds=1, bootstrap=100))
    return out


def test_table9_layout(results):
    groups = family_frame(results)
    table = maze_table(groups, metric="macro_f1", marked=True)
    assert list(table.columns) == [1.0, 0.6]
    assert table.index.get_level_values(3)[:6].tolist() == [
        "Test",
        "Ori-Test",
        "Anti-Test",
        "Δ",
        "VAR(Δ)",
        "Δ 95% CI",
    ]
    single = results[0].statistics
    delta = table.loc[("data", "tfidf-logreg", "single-term", "Δ"), 1.0]
    assert delta.rstrip("*") == f"{single['delta_macro_f1_mean']:.3f}"
    # One seed: nothing varied, so VAR(Δ) is not a number but a dash explained by a footnote.
    assert table.loc[("data", "tfidf-logreg", "single-term", "VAR(Δ)"), 1.0] == "—"
    markdown = render(table, "md", notes=table_notes(groups))
    assert markdown.splitlines()[0] == "| dataset | model | shortcut | row | 1.0 | 0.6 |"
    assert "|  |  | concept-occurrence | Test |" in markdown and "|  |  |  | Ori-Test |" in markdown
    assert "| VAR(Δ) | — | — |" in markdown
    assert "— : nothing varied between seeds" in markdown
    assert "over the 4 tests of this family" in markdown
    assert "over the paired test rows only, conditional on the fitted model" in markdown
    latex = render(table, "latex", notes=table_notes(groups))
    assert r"\footnotesize — : nothing varied" in latex and "p $<$ 0.05" in latex


def test_maze_table_refuses_what_is_not_a_statistics_frame(results):
    with pytest.raises(ConfigError, match="maze_table needs a DataFrame of group statistics"):
        maze_table(results)


def test_holm_over_a_family_is_applied_by_its_caller(results):
    alone = [r.statistics["p_accuracy_holm"] for r in results]
    together = family_frame(results)["p_accuracy_holm"].tolist()
    assert alone == [r.statistics["p_accuracy"] for r in results]  # a family of one
    assert all(t >= a for t, a in zip(together, alone, strict=True))
    assert together != alone


def test_tidy_csv_and_json_read_back_with_pandas(results):
    groups = family_frame(results)
    from_csv = pd.read_csv(io.StringIO(tidy_text(groups, "csv")))
    from_json = pd.read_json(io.StringIO(tidy_text(groups, "json")))
    for frame in (from_csv, from_json):
        assert len(frame) == 4
        assert {"shortcut", "strength", "delta_accuracy_mean", "p_accuracy"} <= set(frame.columns)
        assert frame["delta_accuracy_var"].isna().all() and (frame["distinct_fits"] == 1).all()
        assert frame["strength"].tolist() == pytest.approx([1.0, 0.6, 1.0, 0.6])
    assert json.loads(tidy_text(groups, "json"))[0]["delta_accuracy_var"] is None


def test_result_and_per_label_tables(results):
    table = result_table(results[0])
    assert table.index.tolist() == ["Test", "Ori-Test", "Anti-Test", "Δ", "VAR(Δ)", "Δ 95% CI"]
    low, high = (results[0].statistics[f"delta_accuracy_ci_{e}"] for e in ("low", "high"))
    assert table.loc["Δ 95% CI", "Accuracy"] == f"[{low:.3f}, {high:.3f}]"
    assert to_markdown(table).count("—") == 2
    assert per_label_table(results[0]).columns.tolist() == ["1", "2", "3", "4", "5"]


def test_plot_is_written_and_reproducible(results, tmp_path):
    first = plot_delta_vs_strength(results, tmp_path / "a.png").read_bytes()
    second = plot_delta_vs_strength(results, tmp_path / "b.png").read_bytes()
    assert first[:8] == b"\x89PNG\r\n\x1a\n" and first == second
