"""Style benchmarks from rewrite files in the paper's release layout, by CLI and by spec."""

import json

import numpy as np
import yaml
from typer.testing import CliRunner

from shortcutlab.cli.app import app
from shortcutlab.corpus import generate_corpus
from shortcutlab.experiments.runner import run_experiment
from shortcutlab.shortcuts.rewriters import make_rewriter


def write_release(tmp_path, corpus):
    """<root>/style/<style>/<split>.csv as the paper released them: label,text,rewritten (text is the
    rewrite, rewritten a flag), latin-1, with a few empty rewrites."""
    rules = make_rewriter("rules")
    for role, frame in corpus.items():
        frame[["text", "label"]].to_csv(tmp_path / f"{role}.csv", index=False)
        for style in ("formal", "casual"):
            texts = rules.rewrite(
                frame["text"].tolist(), style, role=role, row_ids=list(range(len(frame)))
            )
            texts = ["" if i % 97 == 5 else t for i, t in enumerate(texts)]
            folder = tmp_path / "style" / style
            folder.mkdir(parents=True, exist_ok=True)
            release = frame[["label"]].assign(
                text=texts, rewritten=["False" if not t else "True" for t in texts]
            )
            release[["label", "text", "rewritten"]].to_csv(
                folder / f"{role}.csv", index=False, encoding="latin-1"
            )


def test_release_files_build_a_register_benchmark_with_a_significant_drop(tmp_path):
    corpus = generate_corpus(train_size=600, test_size=300, seed=5)
    write_release(tmp_path, corpus)
    rewrites = {
        s: {r: str(tmp_path / "style" / s / f"{r}.csv") for r in ("train", "test")}
        for s in ("formal", "casual")
    }
    runner = CliRunner()
    built = runner.invoke(
        app,
        [
            "build",
            "--train",
            str(tmp_path / "train.csv"),
            "--test",
            str(tmp_path / "test.csv"),
            "--shortcut",
            "register",
            "--strength",
            "1",
            "--out",
            str(tmp_path / "bench"),
            "-o",
            "rewriter=file",
            "-o",
            f"rewrites={json.dumps(rewrites)}",
            "-o",
            "encoding=latin-1",
        ],
    )
    assert built.exit_code == 0, built.output
    manifest = json.loads((tmp_path / "bench" / "manifest.json").read_text())
    assert manifest["preparation"]["train"]["styles"]["formal"]["failed"] > 0  # the empty rewrites
    target, observed = (
        manifest["splits"]["test"]["target_rate"],
        manifest["splits"]["test"]["observed_rate"],
    )
    assert all(abs(target[k] - observed[k]) < 0.02 for k in target)
    evaluated = runner.invoke(
        app, ["evaluate", str(tmp_path / "bench"), "--seeds", "1", "--bootstrap", "200"]
    )
    assert evaluated.exit_code == 0 and "significant at" in evaluated.stdout


def test_a_spec_resolves_rewrite_files_next_to_it_and_rebuilds_when_they_change(tmp_path):
    corpus = generate_corpus(train_size=300, test_size=150, seed=5)
    write_release(tmp_path, corpus)
    spec = {
        "name": "styles",
        "data": {"train": "train.csv", "test": "test.csv"},
        "shortcuts": [
            {
                "name": "register",
                "rewriter": "file",
                "encoding": "latin-1",
                "rewrites": {
                    s: {r: f"style/{s}/{r}.csv" for r in ("train", "test")}
                    for s in ("formal", "casual")
                },
            }
        ],
        "strengths": [1.0],
        "models": [{"name": "tfidf-logreg"}],
        "seeds": [0],
        "bootstrap": 100,
    }
    (tmp_path / "spec.yaml").write_text(yaml.safe_dump(spec))
    report = run_experiment(tmp_path / "spec.yaml", tmp_path / "run")
    assert report.done == 1 and report.failed == 0
    before = {p.name for p in (tmp_path / "run" / "benchmarks").iterdir()}
    path = tmp_path / "style" / "casual" / "test.csv"
    path.write_bytes(path.read_bytes().replace(b"ok so", b"okay so"))  # an edited rewrite file
    report = run_experiment(tmp_path / "spec.yaml", tmp_path / "run", force=True)
    after = {p.name for p in (tmp_path / "run" / "benchmarks").iterdir()}
    assert report.done == 1 and len(after - before) == 1
    assert np.isfinite(report.wall_seconds)
