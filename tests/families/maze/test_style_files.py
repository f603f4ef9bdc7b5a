"""Style benchmarks from rewrite files in the paper's release layout, by CLI and by spec."""

import json

import numpy as np
import pandas as pd
import yaml
from typer.testing import CliRunner

from shortcutlab.cli.app import app
from shortcutlab.corpus import generate_corpus
from shortcutlab.families import load_results, run_experiment
from shortcutlab.shortcuts.rewriters import make_rewriter
from tests.cli.refusals import assert_refused, invoke


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
            "maze",
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
        app,
        ["evaluate", str(tmp_path / "bench"), "--seeds", "1", "--bootstrap", "200", "--details"],
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


def _split_bytes(folder):
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.suffix == ".csv"}


def test_rewrites_option_takes_release_folders_and_gives_the_same_benchmark(tmp_path):
    corpus = generate_corpus(train_size=200, test_size=100, seed=5)
    write_release(tmp_path, corpus)
    data = ["--train", tmp_path / "train.csv", "--test", tmp_path / "test.csv"]
    common = ["--shortcut", "register", "--strength", "0.8", "--seed", "2"]
    folders = invoke(
        "build", "maze", *data, *common, "--out", tmp_path / "folders",
        "--rewrites", f"formal={tmp_path / 'style' / 'formal'}",
        "--rewrites", f"casual={tmp_path / 'style' / 'casual'}",
        "--rewrite-encoding", "latin-1",
    )  # fmt: skip
    assert folders.exit_code == 0, folders.output
    rewrites = {
        s: {r: str(tmp_path / "style" / s / f"{r}.csv") for r in ("train", "test")}
        for s in ("formal", "casual")
    }
    options = invoke(
        "build", "maze", *data, *common, "--out", tmp_path / "options",
        "-o", "rewriter=file", "-o", f"rewrites={json.dumps(rewrites)}", "-o", "encoding=latin-1",
    )  # fmt: skip
    assert options.exit_code == 0, options.output
    assert _split_bytes(tmp_path / "folders") == _split_bytes(tmp_path / "options")
    sources = [
        json.loads((tmp_path / name / "manifest.json").read_text())["preparation"]["test"]["styles"]
        for name in ("folders", "options")
    ]
    assert sources[0] == sources[1]  # the same files were read, whichever way they were named
    written = pd.read_csv(tmp_path / "folders" / "test.csv")
    formal = pd.read_csv(tmp_path / "style" / "formal" / "test.csv", encoding="latin-1")
    rows = written[written["shortcut"] == "formal"]
    assert (rows["text"] == formal["text"].iloc[rows["row_id"]].to_numpy()).all()


def test_rewrites_are_strict_utf8_unless_told_otherwise(tmp_path):
    corpus = generate_corpus(train_size=60, test_size=30, seed=5)
    write_release(tmp_path, corpus)
    for path in (tmp_path / "style").rglob("*.csv"):  # latin-1 files holding "café"
        frame = pd.read_csv(path, encoding="latin-1", keep_default_na=False)
        frame["text"] = [f"{t} café" if t else t for t in frame["text"]]
        frame.to_csv(path, index=False, encoding="latin-1")
    data = ["--train", tmp_path / "train.csv", "--test", tmp_path / "test.csv"]
    styles = [f"--rewrites={s}={tmp_path / 'style' / s}" for s in ("formal", "casual")]
    formal = tmp_path / "style" / "formal" / "train.csv"
    offset = formal.read_bytes().index("é".encode("latin-1"))
    message = (
        f"The rewrite file '{formal}' is not valid utf-8: byte 0xe9 at offset {offset} (line 2). "
        "If it is latin-1"
    )
    out = tmp_path / "bench"
    result = assert_refused(tmp_path, message, "build", "maze", *data, "--shortcut", "register",
                            *styles, "--out", out)  # fmt: skip
    assert "--rewrite-encoding latin-1" in result.stderr and not out.exists()
    # Text that is UTF-8 (as the release's Yelp rewrites are) keeps its dash, with no option.
    for style in ("formal", "casual"):
        for role in ("train", "test"):
            path = tmp_path / "style" / style / f"{role}.csv"
            text = path.read_bytes().decode("latin-1").replace("café", "café — ok")
            path.write_bytes(text.encode("utf-8"))
    result = invoke("build", "maze", *data, "--shortcut", "register", *styles, "--out", out)
    assert result.exit_code == 0, result.output
    written = pd.read_csv(out / "test.csv", encoding="utf-8")
    assert written["text"].str.contains("café — ok").any()


def test_rewrites_refuses_unknown_styles_bad_folders_and_other_shortcuts(tmp_path):
    corpus = generate_corpus(train_size=60, test_size=30, seed=5)
    write_release(tmp_path, corpus)
    (tmp_path / "empty_style").mkdir()
    (tmp_path / "empty_style" / "notes.txt").write_text("nothing here")
    data = ["--train", tmp_path / "train.csv", "--test", tmp_path / "test.csv"]
    out = ["--out", tmp_path / "bench"]
    style = tmp_path / "style"
    assert_refused(
        tmp_path,
        "names the style 'shakespeare', which the register shortcut does not use; its styles are formal, casual",
        "build", "maze", *data, "--shortcut", "register", *out,
        "--rewrites", f"shakespeare={style / 'formal'}", "--rewrites", f"casual={style / 'casual'}",
    )  # fmt: skip
    assert_refused(
        tmp_path,
        "The formal rewrite folder",
        "build", "maze", *data, "--shortcut", "register", *out,
        "--rewrites", f"formal={tmp_path / 'empty_style'}", "--rewrites", f"casual={style / 'casual'}",
    )  # fmt: skip
    assert_refused(
        tmp_path,
        "--rewrites and --rewrite-encoding apply to the style shortcuts",
        "build", "maze", *data, "--shortcut", "single-term", *out, "--rewrites", f"formal={style / 'formal'}",
    )  # fmt: skip
    assert_refused(
        tmp_path,
        "on_failed=original-style applies to the register shortcut",
        "build", "maze", *data, "--shortcut", "author", *out, "-o", "on_failed=original-style",
    )  # fmt: skip


def test_original_style_keeps_the_original_text_and_records_it_as_casual(tmp_path):
    corpus = generate_corpus(train_size=200, test_size=100, seed=5)
    write_release(tmp_path, corpus)  # every 97th rewrite (rows 5, 102, ...) is empty
    built = invoke(
        "build", "maze", "--train", tmp_path / "train.csv", "--test", tmp_path / "test.csv",
        "--shortcut", "register", "--strength", "1", "--out", tmp_path / "bench",
        "--rewrites", f"formal={tmp_path / 'style' / 'formal'}",
        "--rewrites", f"casual={tmp_path / 'style' / 'casual'}",
        "--rewrite-encoding", "latin-1", "-o", "on_failed=original-style",
    )  # fmt: skip
    assert built.exit_code == 0, built.output
    anti = pd.read_csv(tmp_path / "bench" / "anti_test.csv")
    original = pd.read_csv(tmp_path / "test.csv")
    row = anti[anti["row_id"] == 5].iloc[0]
    # Both rewrites of row 5 are empty: whichever side it drew, it shows its original text, and
    # the record says casual (with keep-original, a formal row would keep saying formal).
    assert row["text"] == original["text"].iloc[5]
    assert row["shortcut"] == "casual"


def test_results_keep_the_spec_order_of_a_shortcut_read_from_rewrite_files(tmp_path):
    """The stored record holds the rewrite files' hash beside the options; the results order must
    still find the label the cells were stored under (it once sorted such a shortcut last)."""
    corpus = generate_corpus(train_size=300, test_size=150, seed=5)
    write_release(tmp_path, corpus)
    register = {
        "name": "register",
        "rewriter": "file",
        "encoding": "latin-1",
        "rewrites": {
            s: {r: f"style/{s}/{r}.csv" for r in ("train", "test")} for s in ("formal", "casual")
        },
    }
    spec = {
        "data": {"train": "train.csv", "test": "test.csv"},
        "shortcuts": [register, "single-term"],
        "strengths": [1.0],
        "models": [{"name": "majority"}],
        "seeds": [0],
        "bootstrap": 100,
    }
    (tmp_path / "spec.yaml").write_text(yaml.safe_dump(spec))
    assert run_experiment(tmp_path / "spec.yaml", tmp_path / "run").failed == 0
    shortcuts = list(load_results(tmp_path / "run").groups["shortcut"])
    assert shortcuts[0].startswith("register[") and shortcuts[1] == "single-term"
