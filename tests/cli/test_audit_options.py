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


def test_lexicons_add_to_the_packaged_ones_in_the_cli_and_the_api_alike(tmp_path, reviews):
    """``--lexicon`` and ``FeatureConfig(lexicons=...)`` add a list; ``--no-packaged-lexicons`` and
    ``packaged_lexicons=False`` leave the packaged ones out; a packaged name is replaced."""
    from shortcutlab.data.csv_text import csv_text
    from shortcutlab.families.audit.api import audit_dataset
    from shortcutlab.families.audit.report.output import audit_csv_frame
    from shortcutlab.families.audit.scan.features import FeatureConfig
    from shortcutlab.families.audit.scan.lexicons import packaged_lexicons

    (tmp_path / "mine.txt").write_text("great\nnot bad\nterrible\n")
    (tmp_path / "cities.txt").write_text("springfield\n")
    mine = {"mine": ["great", "not bad", "terrible"], "cities": ["springfield"]}
    scan = ["--ngram-max", "1", "--no-attributes", "--no-surface", "--min-support", "5"]
    lists = ["--lexicon", f"mine={tmp_path / 'mine.txt'}", "--lexicon"]
    lists.append(f"cities={tmp_path / 'cities.txt'}")
    config = dict(ngram_max=1, attributes=(), surface=False, min_support=5, lexicons=mine)
    for packaged, flag in ((True, []), (False, ["--no-packaged-lexicons"])):
        out = tmp_path / f"cli-{packaged}"
        cli = invoke("audit", reviews, *scan, *lists, *flag, "--format", "csv", "--out", out)
        assert cli.exit_code == 0, cli.output
        tested = json.loads((out / "audit.json").read_text())["features"]["lexicons"]
        expected = (list(packaged_lexicons()) if packaged else []) + ["mine"]
        expected += [] if packaged else ["cities"]
        assert list(tested) == expected
        assert tested["cities"] == {"entries": 1}  # yours replaces the packaged list
        api = audit_dataset(reviews, features=FeatureConfig(**config, packaged_lexicons=packaged))
        assert api.record["features"]["lexicons"] == tested
        # the command is the API's call, nothing more
        assert cli.stdout == csv_text(audit_csv_frame(api), for_people=True)
