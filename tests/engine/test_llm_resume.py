"""An llm-prompt grid against a faulty local server, killed with SIGKILL and resumed, gives the
uninterrupted results, and no prompt whose answer was cached is ever requested again."""

import sqlite3

import pandas as pd
import pytest
import yaml

from shortcutlab.corpus import generate_corpus
from shortcutlab.families import load_results, run_experiment
from shortcutlab.serving.backends import ClassifierAnswers, project_backend
from shortcutlab.serving.faults import FaultPlan
from shortcutlab.serving.server import ChatServer
from tests.engine.test_kill_resume import run_and_kill

CONCURRENCY = 3


@pytest.mark.slow
def test_llm_grid_killed_and_resumed(tmp_path):
    corpus = generate_corpus(train_size=300, test_size=120, seed=0)
    classifier = ClassifierAnswers.from_table(corpus["train"])
    faults = FaultPlan(rate_429=0.05, rate_500=0.05, rate_timeout=0.02, timeout_seconds=1.5, seed=1)
    with ChatServer(project_backend(classifier), latency=0.02, faults=faults) as server:
        client = {
            "name": "openai-chat",
            "base_url": server.url,
            "model": "shortcutlab-test",
            "api_key_env": None,
            "concurrency": CONCURRENCY,
            "timeout": 1.0,
            "backoff": 0.05,
            "cache": str(tmp_path / "llm-cache.sqlite"),
        }
        spec = {
            "name": "llm-grid",
            "data": {"builtin": "reviews", "train_size": 300, "test_size": 120},
            "shortcuts": ["single-term", "category"],
            "strengths": [1.0],
            "models": [{"name": "llm-prompt", "client": client, "strategy": "few-shot", "k": 3}],
            "seeds": [0, 1],
            "bootstrap": 100,
        }
        (tmp_path / "spec.yaml").write_text(yaml.safe_dump(spec))
        run = tmp_path / "run"
        run_and_kill(tmp_path / "spec.yaml", run, after_cells=1)
        with sqlite3.connect(run / "results.sqlite") as db:
            finished = db.execute("SELECT count(*) FROM cells").fetchone()[0]
        assert 1 <= finished < 4, "the kill should land mid-run"
        report = run_experiment(tmp_path / "spec.yaml", run)
        assert report.skipped == finished and report.done == 4 - finished and report.failed == 0
        requests_before_rerun = server.stats.requests
        run_experiment(
            tmp_path / "spec.yaml", tmp_path / "again"
        )  # every answer now comes from the cache
        assert server.stats.requests == requests_before_rerun
        # Only the requests in flight at the kill (never cached) may have been billed twice.
        assert len(server.stats.duplicate_billable()) <= CONCURRENCY
        assert sum(server.stats.faults.values()) > 0
    resumed, clean = load_results(run), load_results(tmp_path / "again")
    for view in ("table1", "table9", "label_distribution"):
        pd.testing.assert_frame_equal(getattr(resumed, view)(), getattr(clean, view)())
    assert (
        resumed.usage()["cache_hits"].sum() < clean.usage()["cache_hits"].sum()
    )  # usage is what differs
