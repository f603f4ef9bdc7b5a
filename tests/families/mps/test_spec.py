"""MPS spec checks: every bad key or value is one line naming the place and the fix, exit code 2."""

import pytest
from typer.testing import CliRunner

from shortcutlab.cli.app import app
from shortcutlab.errors import ConfigError
from shortcutlab.families import parse_spec
from shortcutlab.families.maze.spec import ExperimentSpec
from shortcutlab.families.mps.spec import MpsSpec
from tests.families.mps.mps_helpers import mps_pool

BASE = {
    "family": "mps",
    "data": {"builtin": "reviews", "train_size": 200, "test_size": 100},
    "attributes": ["negation"],
    "models": [{"name": "tfidf-svm"}],
}


def test_family_picks_the_spec_type_and_maze_stays_the_default():
    assert isinstance(parse_spec(BASE), MpsSpec)
    maze = {k: v for k, v in BASE.items() if k not in ("family", "attributes")}
    maze |= {"shortcuts": ["single-term"], "strengths": [1.0]}
    assert isinstance(parse_spec(maze), ExperimentSpec)
    assert isinstance(parse_spec({**maze, "family": "maze"}), ExperimentSpec)


def test_options_reach_the_resolved_spec():
    spec = parse_spec(
        {
            **BASE,
            "attributes": ["negation", {"name": "question"}],
            "mps": {"dominance": 0.8, "size": 300, "test_size": 0.2},
            "models": [{"name": "bow-mlp", "epochs": 4, "average_last_epochs": 2}],
            "cross_test": False,
        }
    )
    resolved = spec.resolved()
    assert resolved["family"] == "mps" and resolved["cross_test"] is False
    assert resolved["mps"] == {"dominance": 0.8, "size": 300, "test_size": 0.2}
    assert resolved["models"][0]["average_last_epochs"] == 2
    assert [a["name"] for a in resolved["attributes"]] == ["negation", "question"]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        (
            {"attributs": ["negation"]},
            "Unknown key 'attributs' in spec. Did you mean 'attributes'?",
        ),
        (
            {"family": "mazz"},
            "The 'family' key in spec must be one of 'cat', 'maze', 'mps', 'robustness'. Got 'mazz' instead. "
            "Did you mean 'maze'?",
        ),
        (
            {"attributes": ["negaton"]},
            "spec: attributes[0]: Unknown attribute 'negaton'. Did you mean 'negation'",
        ),
        (
            {"attributes": [{"name": "negation", "lexicn": "x"}]},
            "Unknown key 'lexicn' in spec: attributes[0] (negation). Did you mean 'lexicon'?",
        ),
        (
            {"attributes": ["negation", "negation"]},
            "Each entry in spec: attributes must be unique. Got 'negation' twice.",
        ),
        (
            {"mps": {"dominanse": 0.5}},
            "Unknown key 'dominanse' in spec: mps. Did you mean 'dominance'?",
        ),
        (
            {"mps": {"dominance": 1.5}},
            "The 'dominance' key in spec: mps must be a number in (0, 1]. Got 1.5 instead.",
        ),
        (
            {"mps": {"size": -3}},
            "The 'size' key in spec: mps must be an integer >= 1. Got -3 instead.",
        ),
        (
            {"models": [{"name": "tfidf-svm", "average_last_epochs": 5}]},
            "spec: models[0]: average_last_epochs applies to models trained in epochs (bow-mlp, transformer); tfidf-svm has no epochs.",
        ),
        (
            {"models": [{"name": "bow-mlp", "epochs": 3, "average_last_epochs": 5}]},
            "spec: models[0]: average_last_epochs is 5 but the model trains 3 epochs.",
        ),
        (
            {"cross_test": "yes"},
            "The 'cross_test' key in spec must be true or false. Got 'yes' instead.",
        ),
        ({"data": {"test": "x.csv"}}, "spec: data has no 'train' file (the pool)."),
    ],
)
def test_bad_specs_name_the_place_and_the_fix(changes, message):
    with pytest.raises(ConfigError) as error:
        parse_spec({**BASE, **changes})
    assert message in str(error.value)
    assert "\n" not in str(error.value)


def test_the_cli_prints_one_line_and_exits_2(tmp_path):
    (tmp_path / "spec.yaml").write_text(
        "family: mps\ndata: {builtin: reviews}\nattributes: [negation]\n"
        "mps: {dominanse: 0.5}\nmodels: [tfidf-svm]\n"
    )
    result = CliRunner().invoke(
        app, ["run", str(tmp_path / "spec.yaml"), "--out", str(tmp_path / "run")]
    )
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        "Error: Unknown key 'dominanse' in spec.yaml: mps. Did you mean 'dominance'? Allowed keys: "
        "dominance, size, test_size, validation_size, top_values, values, dominant, dominant_labels, "
        "label_mix."
    ]
    assert not (tmp_path / "run").exists()


def test_a_build_that_refuses_its_input_leaves_no_run_folder(tmp_path):
    mps_pool(300).to_csv(tmp_path / "pool.csv", index=False)
    (tmp_path / "spec.yaml").write_text(
        "family: mps\ndata: {train: pool.csv}\nattributes: [negation]\n"
        "mps: {size: 100000}\nmodels: [tfidf-svm]\n"
    )
    result = CliRunner().invoke(
        app, ["run", str(tmp_path / "spec.yaml"), "--out", str(tmp_path / "run")]
    )
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: Too few rows to reach dominance")
    assert "the largest feasible size is" in lines[0]
    assert not (tmp_path / "run").exists()


def test_size_even_label_mix_and_attribute_ids_are_spec_options():
    spec = parse_spec(
        {
            **BASE,
            "attributes": [{"name": "question", "id": "Q"}, "negation"],
            "mps": {"size": "even", "label_mix": "matched"},
        }
    )
    assert spec.resolved()["mps"] == {"size": "even", "label_mix": "matched"}
    assert [a.label for a in spec.attributes] == ["Q", "negation"]
    with pytest.raises(ConfigError, match="label_mix"):
        parse_spec({**BASE, "mps": {"label_mix": "balanced"}})
    with pytest.raises(ConfigError, match="size"):
        parse_spec({**BASE, "mps": {"size": "uneven"}})
