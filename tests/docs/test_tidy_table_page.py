"""docs/how-to/tidy-table.md: its Python examples run in order in one folder, and the Δ-vs-λ
figure they write plots exactly the Δ rows of the tidy table."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from tests.docs.page_examples import run_python_blocks

PAGE = Path(__file__).parents[2] / "docs" / "how-to" / "tidy-table.md"


@pytest.fixture(scope="module")
def page_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Path]:
    pytest.importorskip("matplotlib", reason="the page plots with matplotlib")
    folder = tmp_path_factory.mktemp("tidy-table")
    namespace, _ = run_python_blocks(PAGE, folder, env={"MPLBACKEND": "Agg"})
    return namespace, folder


def test_the_columns_the_page_lists_exist_and_each_build_split_metric_has_one_row(page_run):
    namespace, _ = page_run
    table = namespace["table"]
    listed = PAGE.read_text(encoding="utf-8").split("## One table", 1)[0]
    shown = set(
        re.findall(r"`([a-z_]+)`", listed.split("- the cell:", 1)[1].split("The [glossary]")[0])
    )
    assert {"dataset", "split", "metric", "estimate", "ci_low", "p_adjusted"} <= shown
    assert shown - {"delta", "test", "anti_test", "original_test", "accuracy", "macro_f1"} <= set(
        table.columns
    )
    counts = table.groupby(["strength", "split"]).size()
    assert sorted(table["strength"].unique()) == [0.2, 0.6, 1.0]
    assert set(counts.index.get_level_values("split")) == {
        "test",
        "anti_test",
        "original_test",
        "delta",
    }
    assert not table.duplicated(["strength", "split", "metric"]).any()


def test_the_figure_is_written_and_plots_the_delta_rows(page_run):
    namespace, folder = page_run
    table: pd.DataFrame = namespace["table"]
    assert (folder / "delta-vs-lambda.png").stat().st_size > 0
    drops = table[(table["split"] == "delta") & (table["metric"] == "accuracy")]
    drops = drops.sort_values("strength")
    (line,) = namespace["ax"].lines[:1]  # the errorbar's data line comes first
    assert np.array_equal(line.get_xdata(), drops["strength"].to_numpy())
    assert np.array_equal(line.get_ydata(), drops["estimate"].to_numpy())
    assert len(drops) == 3 and drops["ci_low"].notna().all()
    assert drops["estimate"].is_monotonic_increasing  # the page says the drop grows with λ
