"""A valid number is taken however Python's ``float()`` spells it (issue 34, class L): ``-p
C=5e-1`` and ``lr: 5e-3`` in a grid spec were refused as "not a positive float", because YAML 1.1
reads ``5e-3`` as text; now both train, and the record holds the number."""

from __future__ import annotations

import json

from tests.cli.refusals import invoke


def test_a_p_option_in_exponent_notation_is_a_number(tmp_path, corpus_files):
    result = invoke(
        "evaluate", "--train", corpus_files["train"], "--test", corpus_files["test"],
        "--anti-test", corpus_files["test"], "--seeds", 1, "--bootstrap", 100,
        "-p", "C=5e-1", "--out", tmp_path / "out",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    params = json.loads((tmp_path / "out" / "results.json").read_text())["model"]["params"]
    assert params["C"] == 0.5


def test_a_grid_spec_value_in_exponent_notation_is_a_number(tmp_path, corpus_files):
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        f"data: {{train: {corpus_files['train']}, test: {corpus_files['test']}}}\n"
        "shortcuts: [single-term]\nstrengths: [8e-1]\nval_size: 5e1\nseeds: [0]\n"
        "models: [{name: bow-mlp, lr: 5e-3, epochs: 1}, {name: tfidf-logreg, C: .1e2}]\n"
    )
    result = invoke("run", spec, "--out", tmp_path / "run")
    assert result.exit_code == 0, result.output
    resolved = json.loads((tmp_path / "run" / "spec.resolved.json").read_text())
    assert [model.get("lr", model.get("C")) for model in resolved["models"]] == [0.005, 10.0]
    assert (resolved["strengths"], resolved["val_size"]) == ([0.8], 50.0)
