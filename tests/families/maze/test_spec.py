import pytest

from shortcutlab.errors import ConfigError, InputFileError, UnknownComponentError
from shortcutlab.families import load_spec, parse_spec

BASE = {
    "name": "t",
    "data": {"builtin": "reviews", "train_size": 200, "test_size": 100},
    "shortcuts": ["single-term", {"name": "synonym", "terms": ["to be honest", "frankly"]}],
    "strengths": [1.0, 0.6],
    "models": [
        {"name": "tfidf-logreg", "C": 1.0},
        {"name": "majority", "id": "baseline", "resources": {"cpus": 2}},
    ],
    "seeds": [0, 1],
}


def spec(**changes):
    return parse_spec({**BASE, **changes}, source="spec.yaml")


def test_defaults_are_resolved_and_the_hash_is_stable():
    parsed = spec()
    resolved = parsed.resolved()
    assert (
        resolved["strength_mode"] == "mix"
        and resolved["vary"] == "model"
        and resolved["test_strength"] == 1.0
        and resolved["bootstrap"] == 1000
    )
    assert resolved["models"][1] == {
        "id": "baseline",
        "name": "majority",
        "resources": {"cpus": 2.0, "gpus": 0.0},
    }
    assert resolved["datasets"][0] == {
        "name": "reviews",
        "builtin": "reviews",
        "train_size": 200,
        "test_size": 100,
        "levels": 5,
        "seed": 0,
    }
    assert parsed.fingerprint() == spec().fingerprint()
    assert parsed.fingerprint() != spec(seeds=[0]).fingerprint()


def test_file_datasets_resolve_relative_to_the_spec(tmp_path, corpus):
    (tmp_path / "data").mkdir()
    for role in ("train", "test"):
        corpus[role].to_csv(tmp_path / "data" / f"{role}.csv", index=False)
    (tmp_path / "spec.yaml").write_text(
        "name: files\ndatasets:\n  - {name: mine, train: data/train.csv, test: data/test.csv}\n"
        "shortcuts: [category]\nstrengths: [0.8]\nmodels: [{name: majority}]\n"
    )
    parsed = load_spec(tmp_path / "spec.yaml")
    dataset = parsed.datasets[0]
    assert dataset.train == "data/train.csv" and len(dataset.fingerprint) == 64
    assert dataset.resolve(dataset.train) == str(tmp_path / "data" / "train.csv")


@pytest.mark.parametrize(
    ("changes", "error", "message"),
    [
        (
            {"strenghts": [1.0]},
            ConfigError,
            r"Unknown key 'strenghts' in spec.yaml. Did you mean 'strengths'\? Allowed keys: name, data",
        ),
        (
            {"models": [{"name": "tfidf-logreg", "c": 1}]},
            ConfigError,
            r"Unknown key 'c' in spec.yaml: models\[0\] \(tfidf-logreg\). Did you mean 'C'\?",
        ),
        ({"models": [{"name": "tfidf-logreg", "seed": 1}]}, ConfigError, r"Unknown key 'seed'"),
        (
            {"models": [{"name": "tfidf"}]},
            ConfigError,
            r"models\[0\]: Unknown model 'tfidf'. Did you mean 'tfidf-svm' or 'tfidf-logreg'",
        ),
        (
            {"models": [{"name": "majority"}, {"name": "majority"}]},
            ConfigError,
            r"Each id .* in spec.yaml: models must be unique. Got 'majority' twice",
        ),
        (
            {"models": [{"name": "majority", "resources": {"gpu": 1}}]},
            ConfigError,
            r"Unknown key 'gpu' .* Did you mean 'gpus'",
        ),
        ({"shortcuts": ["honesty"]}, ConfigError, r"shortcuts\[0\]: Unknown shortcut 'honesty'"),
        (
            {"shortcuts": [{"name": "single-term", "word": "x"}]},
            ConfigError,
            r"Unknown key 'word' in spec.yaml: shortcuts\[0\] \(single-term\)",
        ),
        (
            {"strengths": [1.2]},
            ConfigError,
            r"The 'strengths\[0\]' key in spec.yaml must be a number in \[0, 1\]. Got 1.2 instead",
        ),
        (
            {"strengths": []},
            ConfigError,
            r"The 'strengths' key in spec.yaml must be a non-empty list. Got \[\] instead",
        ),
        (
            {"seeds": [0, 0]},
            ConfigError,
            r"Each value in spec.yaml: seeds must be unique. Got 0 twice",
        ),
        (
            {"strength_mode": "mixed"},
            ConfigError,
            r"The 'strength_mode' key in spec.yaml must be one of 'mix', 'scale'. Got 'mixed' "
            r"instead. Did you mean 'mix'",
        ),
        (
            {"bootstrap": 10},
            ConfigError,
            r"The 'bootstrap' key in spec.yaml must be an integer >= 100. Got 10 instead",
        ),
        (
            {"vary": "seed"},
            ConfigError,
            r"The 'vary' key in spec.yaml must be one of 'model', 'data', 'both'. Got 'seed'",
        ),
        (
            {"shortcuts": ["concept-correlation"], "strength_mode": "scale"},
            ConfigError,
            r"concept-correlation .* has no per-label schedule, so strength_mode 'scale'",
        ),
        (
            {"data": {"builtin": "yelp"}},
            ConfigError,
            r"The 'builtin' key in spec.yaml: data must be one of 'reviews'. Got 'yelp' instead",
        ),
        (
            {"data": {"train": "absent.csv", "test": "absent.csv"}},
            InputFileError,
            r"data: train names 'absent.csv', which does not exist",
        ),
        ({"datasets": [{"builtin": "reviews"}]}, ConfigError, r"needs exactly one of 'data'"),
    ],
)
def test_bad_specs_name_the_key_and_the_fix(changes, error, message):
    with pytest.raises(error, match=message):
        spec(**changes)


def test_missing_required_key_and_bad_files(tmp_path):
    with pytest.raises(ConfigError, match="has no 'models' key"):
        parse_spec({k: v for k, v in BASE.items() if k != "models"})
    with pytest.raises(InputFileError, match="does not exist"):
        load_spec(tmp_path / "nope.yaml")
    (tmp_path / "bad.yaml").write_text("name: x\nshortcuts: [a\n")
    with pytest.raises(ConfigError, match=r"not valid YAML at line 3"):
        load_spec(tmp_path / "bad.yaml")
    (tmp_path / "list.yaml").write_text("- a\n")
    with pytest.raises(ConfigError, match="must hold a mapping"):
        load_spec(tmp_path / "list.yaml")


def test_unknown_component_error_is_a_key_error_too():
    with pytest.raises(UnknownComponentError):
        from shortcutlab.models import make_model

        make_model("nope")


def test_test_strength_takes_a_number_or_same(tmp_path):
    from shortcutlab.data.benchmark import Benchmark
    from shortcutlab.families import run_experiment

    assert spec(test_strength="same").resolved()["test_strength"] == "same"
    with pytest.raises(
        ConfigError,
        match="The 'test_strength' key in spec.yaml must be a number in \\[0, 1\\] or 'same'",
    ):
        spec(test_strength="half")
    grid = {**BASE, "shortcuts": ["single-term"], "strengths": [0.6], "test_strength": "same"}
    grid["models"], grid["seeds"] = [{"name": "majority"}], [0]
    parsed = parse_spec(grid, source="spec.yaml")
    run_experiment(parsed, tmp_path / "run")
    (folder,) = (tmp_path / "run" / "benchmarks").iterdir()
    splits = Benchmark.load(folder).manifest["splits"]
    assert splits["test"]["strength"] == splits["anti_test"]["strength"] == 0.6


LLM_REGISTER = {
    "name": "register",
    "rewriter": "llm",
    "rewriter_options": {
        "client": {"name": "openai-chat", "base_url": "http://127.0.0.1:9/v1", "model": "m"}
    },
}


def test_a_shortcut_label_leaves_out_its_clients_cache_and_concurrency_but_its_id_does_not():
    plain = spec(shortcuts=[LLM_REGISTER], strengths=[1.0])
    client = LLM_REGISTER["rewriter_options"]["client"] | {"cache": "c.sqlite", "concurrency": 4}
    cached = spec(
        shortcuts=[{**LLM_REGISTER, "rewriter_options": {"client": client}}], strengths=[1.0]
    )
    assert (
        cached.shortcuts[0].label
        == plain.shortcuts[0].label
        == (
            "register[rewriter=llm, rewriter_options={'client': {'name': 'openai-chat', "
            "'base_url': 'http://127.0.0.1:9/v1', 'model': 'm'}}]"
        )
    )
    assert cached.fingerprint() != plain.fingerprint()  # the spec hash covers every option


def test_shortcut_entries_that_differ_only_in_operational_options_are_refused():
    client = LLM_REGISTER["rewriter_options"]["client"] | {"timeout": 5}
    with pytest.raises(
        ConfigError, match=r"^Each label \(the same build\) in spec.yaml: shortcuts must be unique"
    ):
        spec(shortcuts=[LLM_REGISTER, {**LLM_REGISTER, "rewriter_options": {"client": client}}])
