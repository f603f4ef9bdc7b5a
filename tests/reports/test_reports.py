import pytest

from shortcutlab.experiments.evaluate import evaluate_benchmark
from shortcutlab.reports import (
    maze_table,
    per_label_table,
    plot_delta_vs_strength,
    result_table,
    to_markdown,
)
from shortcutlab.splits import build_maze_benchmark


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
    table = maze_table(results, metric="macro_f1")
    assert list(table.columns) == [1.0, 0.6]
    assert table.index.get_level_values(1)[:5].tolist() == [
        "Test",
        "Ori-Test",
        "Anti-Test",
        "Δ",
        "VAR(Δ)",
    ]
    single = results[0].summary
    assert table.loc[("single-term", "Δ"), 1.0] == single["delta"]["macro_f1"]["mean"]
    markdown = to_markdown(table)
    assert markdown.splitlines()[0] == "| shortcut | row | 1.0 | 0.6 |"
    assert "| concept-occurrence | Test |" in markdown and "|  | Ori-Test |" in markdown


def test_result_and_per_label_tables(results):
    table = result_table(results[0])
    assert table.index.tolist() == ["Test", "Ori-Test", "Anti-Test", "Δ", "VAR(Δ)", "Δ 95% CI"]
    assert per_label_table(results[0]).columns.tolist() == ["1", "2", "3", "4", "5"]


def test_plot_is_written_and_reproducible(results, tmp_path):
    first = plot_delta_vs_strength(results, tmp_path / "a.png").read_bytes()
    second = plot_delta_vs_strength(results, tmp_path / "b.png").read_bytes()
    assert first[:8] == b"\x89PNG\r\n\x1a\n" and first == second
