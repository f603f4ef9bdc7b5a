"""``shortcutlab audit --attribute-option NAME.KEY=VALUE`` reaches the annotator named with its
dashes ("frequent-words", "sentence-concept"), and a malformed option is refused."""

from __future__ import annotations

import json

import pytest

from tests.cli.refusals import assert_refused, invoke


@pytest.fixture
def reviews(tmp_path, corpus):
    path = tmp_path / "train.csv"
    corpus["train"][["text", "label"]].to_csv(path, index=False)
    return path


def test_a_dashed_annotator_gets_its_option(tmp_path, reviews):
    result = invoke(
        "audit", reviews, "--out", tmp_path / "out", "--format", "csv", "--min-support", "1",
        "--attribute", "frequent-words", "--attribute-option", "frequent-words.k=2",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    record = json.loads((tmp_path / "out" / "audit.json").read_text())
    fitted = record["features"]["parts"]["text"]["attributes"]["frequent-words"]
    assert fitted["k"] == 2 and len(fitted["words"]) == 2, fitted


@pytest.mark.parametrize("option", ["k=2", "frequent-words.=2", "frequent-words=k.2"])
def test_an_option_without_name_dot_key_is_refused(tmp_path, reviews, option):
    assert_refused(
        tmp_path,
        "--attribute-option takes NAME.KEY=VALUE",
        "audit", reviews, "--out", tmp_path / "out", "--attribute", "frequent-words",
        "--attribute-option", option,
    )  # fmt: skip
