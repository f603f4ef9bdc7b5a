"""The command line: happy paths and every documented bad input (exit 2, one line, nothing written)."""

import io
import json

import pandas as pd
import pytest

from shortcutlab._version import __version__
from tests.cli.refusals import build_args, invoke


def test_version_and_list():
    assert invoke("--version").stdout.strip() == f"shortcutlab {__version__}"
    listing = invoke("list")
    assert listing.exit_code == 0
    for name in (
        "single-term",
        "synonym",
        "category",
        "concept-occurrence",
        "concept-correlation",
        "tfidf-logreg",
        "negation",
        "frequent-words",
        "jtt",
        "groupdro",
    ):
        assert name in listing.stdout
    words = " ".join(listing.stdout.split())
    for option in ("term='honestly'", "C=10.0", "ngram_range=(1, 2)", "k=6", "upweight=6.0"):
        assert option in words, option
    assert "Upweights" in words  # jtt's description, from its docstring
    rows = [line.split("│") for line in listing.stdout.splitlines() if "│" in line]
    assert [cells[0].strip() for cells in rows if cells[0].strip()] == [
        "family",
        "metric",
        "shortcut",
        "model",
        "attribute",
        "mitigation",
    ]  # each kind once, above its rows
    table = pd.read_csv(io.StringIO(invoke("list", "--format", "csv").stdout))
    families = table.loc[table["kind"] == "family", "name"].tolist()
    metrics = table.loc[table["kind"] == "metric", "name"].tolist()
    assert families == ["maze", "mps", "cat", "suite", "audit", "robustness"]
    assert metrics == ["accuracy", "macro_f1"]
    assert set(table["name"]) <= set(" ".join(cells[1] for cells in rows).split())


def test_generate_build_evaluate(tmp_path):
    assert (
        invoke(
            "generate", "--out", tmp_path / "corpus", "--train-size", 400, "--test-size", 200
        ).exit_code
        == 0
    )
    files = {"train": tmp_path / "corpus" / "train.csv", "test": tmp_path / "corpus" / "test.csv"}
    built = invoke(
        *build_args(
            files,
            tmp_path / "b",
            "--shortcut",
            "synonym",
            "--strength",
            1,
            "--val-size",
            40,
            "-o",
            "terms=[to be honest, frankly speaking]",
        )
    )
    assert built.exit_code == 0, built.output
    assert "Cue rate per label" in built.stdout
    manifest = json.loads((tmp_path / "b" / "manifest.json").read_text())
    assert manifest["arguments"]["shortcut_options"] == {
        "terms": ["to be honest", "frankly speaking"],
        "next_word": "lower",
    }
    assert manifest["arguments"]["val_size"] == 40
    evaluated = invoke(
        "evaluate", tmp_path / "b", "--seeds", 2, "--bootstrap", 200, "-p", "C=1.0", "--details"
    )
    assert evaluated.exit_code == 0, evaluated.output
    assert "Anti-Test" in evaluated.stdout and "McNemar" in evaluated.stdout
    results = json.loads((tmp_path / "b" / "results" / "tfidf-logreg" / "results.json").read_text())
    assert results["model"]["params"]["C"] == 1.0 and results["seeds"] == [0, 1]


def test_concept_shortcut_with_distractor_files(tmp_path, corpus):
    paths = {}
    for role in ("train", "test"):
        frame = corpus[role]
        frame[["text", "label"]].to_csv(tmp_path / f"{role}.csv", index=False)
        for aspect in ("appearance", "delivery"):
            paths[(aspect, role)] = tmp_path / f"{aspect}_{role}.csv"
            frame[[f"{aspect}_text", f"{aspect}_label"]].set_axis(["text", "label"], axis=1).to_csv(
                paths[(aspect, role)], index=False
            )
    files = {"train": tmp_path / "train.csv", "test": tmp_path / "test.csv"}
    result = invoke(
        *build_args(files, tmp_path / "b", "--shortcut", "concept-occurrence"),
        "--distractor",
        f"appearance={paths[('appearance', 'train')]}",
        "--distractor",
        f"delivery={paths[('delivery', 'train')]}",
        "--test-distractor",
        f"appearance={paths[('appearance', 'test')]}",
    )
    assert result.exit_code == 0, result.output
    assert "Warning: No test file for distractor 'delivery'" in result.stderr
    manifest = json.loads((tmp_path / "b" / "manifest.json").read_text())
    assert manifest["arguments"]["shortcut_options"]["aspects"] == ["appearance", "delivery"]


@pytest.mark.slow
def test_demo_command(quick_demo):
    out, result = quick_demo  # shortcutlab demo --train-size 300 --test-size 200 --seeds 1 --jobs 1
    assert result.exit_code == 0, result.output
    assert "Accuracy by training strength" in result.stdout
    assert (out / "delta_vs_strength_accuracy.png").exists()
    assert "concept-occurrence" in result.stdout and "…" not in result.stdout  # names whole
    # The MPS grid's warnings come after every table, name their build and the grid's spec key
    # (the demo has no --label-mix), and say where that spec is.
    warnings = [line for line in result.output.splitlines() if line.startswith("Warning:")]
    assert warnings and all("MPS build of attribute" in line for line in warnings)
    assert all("mps: {label_mix: matched}" in line for line in warnings if "priors" in line)
    assert "--label-mix" not in result.output
    assert result.output.index("Warning:") > result.output.index("MPS (paper 002)")
    assert "spec.resolved.json" in result.stderr
    # Plain words at the end, one per shortcut and MPS attribute; footnotes only with --details.
    found = result.stdout.split("\nFindings:\n")[1].splitlines()
    shortcuts = ["single-term", "synonym", "category", "register", "author", "bible"]
    for shortcut in [*shortcuts, "concept-occurrence", "concept-correlation"]:
        assert (
            sum(
                f" reliance on {shortcut} at λ 1 (" in line or f" relies on {shortcut}: " in line
                for line in found
            )
            == 1
        )
    for attribute in ("negation", "question", "product-type"):
        assert any(f"training on labels balanced across {attribute} " in line for line in found)
    for footnote in ("Holm–Bonferroni", "δ = W-ACC(Balanced)", "— : nothing varied"):
        assert footnote not in result.stdout
