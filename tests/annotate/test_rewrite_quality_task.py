"""rewrite-quality: a rewrite next to its original, four 1-5 criteria (Shortcut Maze, figure 7);
the summary's means and score counts against numbers worked out here, with the LLM judge's
scores of the same rows from a real rewrite-quality output."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from shortcutlab.annotate.export import export_task, load_summary
from shortcutlab.annotate.rewrite_task import criteria_form
from shortcutlab.annotate.tasks import task_kind
from shortcutlab.corpus import generate_reviews
from shortcutlab.errors import DataError
from shortcutlab.families.maze.rewrite_quality import CRITERIA, rewrite_quality
from shortcutlab.serving.backends import project_backend
from shortcutlab.serving.server import ChatServer
from tests.annotate.task_sources import answer, create_task

KIND = task_kind("rewrite-quality")


@pytest.fixture(scope="module")
def quality_output(tmp_path_factory):
    cache = tmp_path_factory.mktemp("judge") / "c.sqlite"
    with ChatServer(project_backend()) as server:
        judge = {
            "name": "openai-chat",
            "base_url": server.url,
            "model": "shortcutlab-test",
            "api_key_env": None,
            "cache": str(cache),
        }
        report = rewrite_quality(
            generate_reviews(40, seed=8),
            shortcut="register",
            judge=judge,
            embeddings=False,
            sample=6,
        )
    return report.save(tmp_path_factory.mktemp("quality") / "out")


def test_a_style_build_pairs_each_rewritten_test_row_with_its_original(style_build):
    plan = KIND.plan(style_build, sample=5, seed=0)
    test = pd.read_csv(style_build / "test.csv").set_index("row_id")
    original = pd.read_csv(style_build / "original_test.csv").set_index("row_id")
    assert [f.name for f in plan.form.fields] == list(CRITERIA)
    assert [c.key for c in plan.form.fields[0].choices] == ["1", "2", "3", "4", "5"]
    for item in plan.items:
        row_id = item.reference["row_id"]
        assert item.payload == {
            "original": original.loc[row_id, "text"],
            "rewrite": test.loc[row_id, "text"],
            "style": test.loc[row_id, "shortcut"],
        }
        assert item.payload["original"] != item.payload["rewrite"]


def test_means_and_score_counts_per_style_and_criterion(quality_output, tmp_path):
    folder = tmp_path / "rw"
    plan = create_task("rewrite-quality", quality_output, folder, sample=12)
    assert len(plan.items) == 12  # 6 rows x 2 styles

    def scores(n, item):
        return {c: str(1 + (n + k) % 5) for k, c in enumerate(CRITERIA)}

    answer(folder, "ann", scores)
    answer(folder, "bob", lambda n, item: {c: "5" for c in CRITERIA}, first=3)
    export_task(folder)
    table = load_summary(folder).tables["criteria"][1]
    rows = pd.read_csv(quality_output / "rows.csv")
    judged = rows.set_index(["style", "row_id"])
    for style in ("casual", "formal"):
        for k, criterion in enumerate(CRITERIA):
            mine = [
                (n, item) for n, item in enumerate(plan.items) if item.reference["style"] == style
            ]
            given = [1 + (n + k) % 5 for n, _ in mine] + [5 for n, _ in mine if n < 3]
            row = table.loc[(style, criterion)]
            assert row["answers"] == len(given)
            assert row["mean"] == pytest.approx(np.mean(given))
            assert row["sd"] == pytest.approx(np.std(given, ddof=1))
            assert [row[s] for s in "12345"] == [given.count(s) for s in range(1, 6)]
            judge = [judged.loc[(style, i.reference["row_id"]), criterion] for _, i in mine]
            assert row["judge_mean"] == pytest.approx(np.mean(judge))


def test_sources_without_rewrites_are_refused_with_the_fix(maze_run, tmp_path):
    build = next((maze_run / "benchmarks").iterdir())
    with pytest.raises(DataError, match="is a single-term build; rewrite-quality needs"):
        KIND.plan(build, sample=5, seed=0)
    with pytest.raises(DataError, match="holds no rewrites; rewrite-quality needs"):
        KIND.plan(tmp_path, sample=5, seed=0)
    with pytest.raises(
        DataError, match="exactly the fields meaning, attitude, no_added, no_omitted"
    ):
        KIND.check_answer(criteria_form(), {"meaning": "5"})
    with pytest.raises(DataError, match="'meaning' takes one of 1, 2, 3, 4, 5; got '6'"):
        KIND.check_answer(criteria_form(), {c: "6" for c in CRITERIA})
