"""rewrite-quality: judge scores, embedding similarity, length ratio, label consistency, flags."""

import json

import numpy as np
import pytest

from shortcutlab.corpus import generate_reviews
from shortcutlab.errors import ConfigError
from shortcutlab.families.maze.rewrite_quality import rewrite_quality
from shortcutlab.serving.backends import project_backend
from shortcutlab.serving.server import ChatServer
from tests.cli.refusals import assert_refused, invoke


@pytest.fixture(scope="module")
def reviews():
    return generate_reviews(200, seed=8)


@pytest.fixture(scope="module")
def judge(tmp_path_factory):
    with ChatServer(project_backend()) as server:
        yield {
            "name": "openai-chat",
            "base_url": server.url,
            "model": "shortcutlab-test",
            "api_key_env": None,
            "cache": str(tmp_path_factory.mktemp("judge") / "c.sqlite"),
        }


@pytest.mark.slow
def test_rules_rewrites_are_judged_and_checked(reviews, judge, tmp_path, monkeypatch):
    monkeypatch.setenv("SHORTCUTLAB_CACHE", str(tmp_path / "embeddings"))
    report = rewrite_quality(reviews, shortcut="register", judge=judge)
    summary = report.summary
    assert list(summary.index) == ["formal", "casual"] and (summary["rows"] == 200).all()
    assert summary["similarity"].min() > 0.8 and summary["label_consistent"].min() > 0.7
    for criterion in ("meaning", "attitude", "no_added", "no_omitted"):
        assert summary[criterion].between(1, 5).all()
    flagged = report.flagged()
    assert set(flagged.index) <= set(report.rows.index) and (flagged["flags"] != "").all()
    again = rewrite_quality(reviews, shortcut="register", judge=judge)
    assert again.rows.equals(report.rows)
    out = report.save(tmp_path / "quality")
    assert sorted(p.name for p in out.iterdir()) == [
        "flagged.csv",
        "quality.json",
        "rows.csv",
        "summary.csv",
    ]
    assert json.loads((out / "quality.json").read_text())["settings"]["judge"] == "openai-chat"


def test_a_destructive_rewrite_is_flagged(reviews):
    keep = reviews.head(60)
    report = rewrite_quality(
        keep,
        shortcut="bible",
        embeddings=False,
        rewriter="file",
        rewriter_options={"rewrites": {"bible": _bad_file(keep)}},
    )
    rows = report.rows
    assert rows["flags"].str.contains("length").all()
    assert np.isclose(report.summary.loc["bible", "failed"], 0)


def _bad_file(frame):
    import tempfile
    from pathlib import Path

    path = Path(tempfile.mkdtemp()) / "bible.csv"
    frame.assign(text=["Amen." for _ in range(len(frame))], rewritten="True")[
        ["label", "text", "rewritten"]
    ].to_csv(path, index=False)
    return str(path)


def test_bad_requests(reviews):
    with pytest.raises(ConfigError, match="needs a style shortcut"):
        rewrite_quality(reviews, shortcut="single-term")
    with pytest.raises(ConfigError, match="Unknown threshold"):
        rewrite_quality(reviews, thresholds={"similarty": 0.5})


def test_command_line(reviews, tmp_path):
    reviews.to_csv(tmp_path / "data.csv", index=False)
    result = invoke(
        "rewrite-quality",
        "--data",
        tmp_path / "data.csv",
        "--shortcut",
        "author",
        "--no-embeddings",
        "--sample",
        50,
        "--out",
        tmp_path / "q",
    )
    assert result.exit_code == 0, result.output
    assert (
        "Rewrite quality: rules rewriter, 50 rows (author)" in result.stdout
        and (tmp_path / "q" / "flagged.csv").exists()
    )
    assert_refused(
        tmp_path,
        "Cannot reach the LLM server at http://127.0.0.1:9/v1",
        "rewrite-quality",
        "--data",
        tmp_path / "data.csv",
        "--no-embeddings",
        "--judge",
        "{name: openai-chat, base_url: 'http://127.0.0.1:9/v1', model: m, api_key_env: null}",
        "--out",
        tmp_path / "unjudged",
    )
