"""``shortcutlab export BENCH --to lm-eval``: lm-evaluation-harness, run on the exported tasks
against ``shortcutlab llm-server`` on loopback, scores test and anti-test as ``evaluate --model
llm-prompt`` does against the same server, row by row; the folder's layout, determinism, refusals."""

from __future__ import annotations

import csv
import json
import os
import selectors
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from shortcutlab.corpus import generate_corpus
from shortcutlab.errors import ConfigError
from shortcutlab.export import export_benchmark
from tests.cli.refusals import assert_refused, invoke
from tests.conftest import folder_bytes

pytest.importorskip("datasets")

MAZE_EVALUATION = ["test", "anti_test", "original_test"]
METRIC = "exact_match,llm-prompt-answer"


@pytest.fixture(scope="module")
def maze(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Maze benchmark (a few dozen rows per evaluation split) and its lm-eval export."""
    root = tmp_path_factory.mktemp("lm-eval")
    corpus = generate_corpus(train_size=500, test_size=40, seed=3)
    for name, frame in corpus.items():
        frame.to_csv(root / f"{name}.csv", index=False)
    built = invoke(
        "build", "maze", "--train", root / "train.csv", "--test", root / "test.csv",
        "--shortcut", "concept-correlation", "--strength", 1.0, "--val-size", 30,
        "--out", root / "maze",
    )  # fmt: skip
    assert built.exit_code == 0, built.output
    exported = invoke("export", root / "maze", "--to", "lm-eval", "--out", root / "maze-lm-eval")
    assert exported.exit_code == 0, exported.output
    assert exported.stdout.strip() == f"Exported {root / 'maze'} as lm-eval to {root}/maze-lm-eval"
    return root


@pytest.fixture(scope="module")
def server(maze: Path) -> Iterator[str]:
    """``shortcutlab llm-server`` on 127.0.0.1 answering with TF-IDF fitted on the train split."""
    process = subprocess.Popen(
        [sys.executable, "-m", "shortcutlab", "llm-server", "--port", "0",
         "--train", str(maze / "maze" / "train.csv")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip
    try:
        with selectors.DefaultSelector() as selector:
            selector.register(process.stdout, selectors.EVENT_READ)
            if not selector.select(timeout=60):
                pytest.fail("llm-server printed nothing in 60 s")
        line = process.stdout.readline()
        assert line.startswith("Serving 'shortcutlab-test' at http://127.0.0.1:"), line
        yield line.split(" at ")[1].split(" ")[0]
    finally:
        process.terminate()
        process.communicate(timeout=30)


def _run_lm_eval(maze: Path, url: str) -> Path:
    """lm_eval on the exported group, offline; the folder of its results and samples."""
    out = maze / "lm-eval-results"
    environment = {
        **os.environ,
        "HF_DATASETS_OFFLINE": "1",
        "HF_HUB_OFFLINE": "1",
        "HF_HOME": str(maze / "hf-home"),
        "NO_PROXY": "127.0.0.1,localhost",
    }
    command = [
        sys.executable, "-m", "lm_eval", "--model", "local-chat-completions",
        "--model_args", f"base_url={url}/chat/completions,model=shortcutlab-test,num_concurrent=4",
        "--tasks", "shortcutlab_maze", "--include_path", str(maze / "maze-lm-eval"),
        "--apply_chat_template", "--output_path", str(out), "--log_samples",
    ]  # fmt: skip
    finished = subprocess.run(
        command, env=environment, capture_output=True, text=True, timeout=300, check=False
    )
    assert finished.returncode == 0, finished.stderr[-3000:]
    return out / "shortcutlab-test"


@pytest.mark.slow
def test_lm_eval_scores_test_and_anti_test_as_llm_prompt_does(maze, server):
    pytest.importorskip("lm_eval")
    pytest.importorskip("tenacity", reason="lm-eval's API models need lm-eval[api]")
    evaluated = invoke(
        "evaluate", maze / "maze", "--model", "llm-prompt",
        "-p", f"client={{name: openai-chat, base_url: '{server}', model: shortcutlab-test, "
        "api_key_env: null, cache: null}", "--seeds", 1, "--bootstrap", 100,
        "--out", maze / "evaluated",
    )  # fmt: skip
    assert evaluated.exit_code == 0, evaluated.output
    statistics = json.loads((maze / "evaluated" / "results.json").read_text())["statistics"]
    ours = {split: statistics[f"{split}_accuracy_mean"] for split in MAZE_EVALUATION}
    assert ours["test"] - ours["anti_test"] > 0.1  # the shortcut shows: the splits differ

    folder = _run_lm_eval(maze, server)
    (results_file,) = folder.glob("results_*.json")
    results = json.loads(results_file.read_text())["results"]
    theirs = {split: results[f"shortcutlab_maze_{split}"][METRIC] for split in MAZE_EVALUATION}
    for split in MAZE_EVALUATION:
        assert theirs[split] == pytest.approx(ours[split], abs=0.005), (split, theirs, ours)
    # Row by row (predictions.csv holds test and anti-test): lm-eval extracted llm-prompt's label.
    with (maze / "evaluated" / "predictions.csv").open() as handle:
        predicted = {(r["split"], int(r["row_id"])): r["predicted"] for r in csv.DictReader(handle)}
    for split in ("test", "anti_test"):
        (samples,) = folder.glob(f"samples_shortcutlab_maze_{split}_*.jsonl")
        rows = [json.loads(line) for line in samples.read_text().splitlines()]
        assert len(rows) == 40
        for row in rows:
            extracted = row["filtered_resps"][0]
            assert extracted == predicted[(split, row["doc"]["row_id"])], (split, row)


def test_the_folder_holds_a_group_of_tasks_with_llm_prompts_prompt_and_parser(maze):
    from shortcutlab.models.llm_prompt import LLMPrompt

    folder = maze / "maze-lm-eval"
    group = yaml.safe_load((folder / "shortcutlab_maze.yaml").read_text())
    assert group["group"] == "shortcutlab_maze"
    assert group["task"] == [f"shortcutlab_maze_{s}" for s in MAZE_EVALUATION]
    model = LLMPrompt()
    model.set_label_values([1, 2, 3, 4, 5])
    model.prepare_prompts(5, paired=False)
    for split in MAZE_EVALUATION:
        text = (folder / f"shortcutlab_maze_{split}.yaml").read_text()
        assert text.startswith("custom_dataset: !function shortcutlab_data.load\n")
        task = yaml.safe_load(text.partition("\n")[2])
        assert task["dataset_kwargs"] == {"data_files": {split: f"data/{split}.jsonl"}}
        assert task["generation_kwargs"]["max_gen_toks"] == 5
        assert task["filter_list"][0]["filter"][0]["regex_pattern"] == (
            model.parser_.extraction_regex()
        )
        rows = [json.loads(line) for line in (folder / task["dataset_kwargs"]["data_files"][
            split]).read_text().splitlines()]  # fmt: skip
        source = list(csv.DictReader((maze / "maze" / f"{split}.csv").open()))
        assert [r["row_id"] for r in rows] == [int(r["row_id"]) for r in source]
        assert [r["label"] for r in rows] == [r["label"] for r in source]
        assert [r["prompt"] for r in rows] == [model.prompt(r["text"]) for r in source]
        assert rows[0]["prompt"].endswith(f"Review:\n{source[0]['text']}\n### Rating: [")


def test_the_loader_reads_the_splits_from_any_working_directory(maze, tmp_path, monkeypatch):
    import importlib.util

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HF_DATASETS_CACHE", str(tmp_path / "cache"))
    path = maze / "maze-lm-eval" / "shortcutlab_data.py"
    spec = importlib.util.spec_from_file_location("exported_loader", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    loaded = module.load(data_files={"anti_test": "data/anti_test.jsonl"}, version=1)
    assert loaded["anti_test"].num_rows == 40
    assert set(loaded["anti_test"].column_names) == {"row_id", "text", "label", "prompt"}


def test_the_export_is_byte_identical_when_repeated(maze):
    again = invoke("export", maze / "maze", "--to", "lm-eval", "--out", maze / "again")
    assert again.exit_code == 0, again.output
    assert folder_bytes(maze / "again") == folder_bytes(maze / "maze-lm-eval")


def _hand_built(root: Path, kind: str, splits: dict[str, list[dict]]) -> Path:
    """A benchmark folder as `build` writes it: one CSV per split and the manifest."""
    folder = root / kind
    folder.mkdir()
    records = {}
    for name, rows in splits.items():
        with (folder / f"{name}.csv").open("w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
        records[name] = {"file": f"{name}.csv"}
    arguments = {"text_pair_col": "text_pair"} if "text_pair" in rows[0] else {}
    manifest = {"kind": kind, "splits": records, "arguments": arguments}
    (folder / "manifest.json").write_text(json.dumps(manifest))
    return folder


def test_suite_sets_become_nli_tasks_and_fitting_splits_are_left_out(tmp_path):
    pairs = [
        {"row_id": i, "text": f"A man sleeps {i}.", "text_pair": f"A man {w}.", "label": label}
        for i, (w, label) in enumerate([("sleeps", "entailment"), ("runs", "contradiction")])
    ]
    suite = _hand_built(
        tmp_path, "shortcut-suite", {"train": pairs, "standard": pairs, "lexical-overlap": pairs}
    )
    result = invoke("export", suite, "--to", "lm-eval", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    group = yaml.safe_load((tmp_path / "out" / "shortcutlab_shortcut_suite.yaml").read_text())
    assert group["task"] == [
        "shortcutlab_shortcut_suite_standard",
        "shortcutlab_shortcut_suite_lexical_overlap",
    ]
    (row, _) = [
        json.loads(line)
        for line in (tmp_path / "out" / "data" / "lexical_overlap.jsonl").read_text().splitlines()
    ]
    assert row["text_pair"] == "A man sleeps." and row["label"] == "entailment"
    assert "Premise: A man sleeps 0.\nHypothesis: A man sleeps.\nAnswer:" in row["prompt"]


def test_a_benchmark_without_evaluation_splits_is_refused(tmp_path):
    rows = [{"row_id": 0, "text": "fine", "label": 1}, {"row_id": 1, "text": "bad", "label": 0}]
    only_training = _hand_built(tmp_path, "shortcut-maze", {"train": rows, "validation": rows})
    assert_refused(
        tmp_path,
        "has no evaluation split (it has train, validation); lm-eval tasks evaluate test, "
        "anti_test, original_test or Suite sets. Export it with --to hf instead.",
        "export", only_training, "--to", "lm-eval", "--out", tmp_path / "out",
    )  # fmt: skip


def test_push_to_hub_is_refused_for_lm_eval(maze):
    assert_refused(
        maze,
        "--push-to-hub works with --to hf, not --to lm-eval. Drop --push-to-hub or change --to.",
        "export", maze / "maze", "--to", "lm-eval", "--out", maze / "pushed",
        "--push-to-hub", "someone/maze",
    )  # fmt: skip


def test_the_label_names_it_advises_are_taken_by_its_own_p_option(tmp_path):
    """Labels 0/1 get the rating prompt and a warning naming ``-p "label_names=[...]"``; that
    option of ``export`` writes the names into every task's parser, rows and prompts."""
    rows = [{"row_id": i, "text": f"review {i}", "label": i % 2} for i in range(4)]
    bench = _hand_built(tmp_path, "shortcut-maze", {"train": rows, "test": rows})
    plain = invoke("export", bench, "--to", "lm-eval", "--out", tmp_path / "plain")
    assert plain.exit_code == 0, plain.output
    assert 'name them in label order, e.g. -p "label_names=[name0, name1]"' in plain.stderr
    named = invoke(
        "export", bench, "--to", "lm-eval", "--out", tmp_path / "named",
        "-p", "label_names=[negative, positive]",
    )  # fmt: skip
    assert named.exit_code == 0, named.output
    assert "label_names" not in named.stderr
    text = (tmp_path / "named" / "shortcutlab_shortcut_maze_test.yaml").read_text()
    task = yaml.safe_load(text.partition("\n")[2])
    pattern = task["filter_list"][0]["filter"][0]["regex_pattern"]
    assert "negative" in pattern and "positive" in pattern
    assert (
        "negative" not in (tmp_path / "plain" / "shortcutlab_shortcut_maze_test.yaml").read_text()
    )
    written = [json.loads(line) for line in (tmp_path / "named" / "data" / "test.jsonl").open()]
    assert [row["label"] for row in written] == ["negative", "positive"] * 2
    assert all("negative" in row["prompt"] and "positive" in row["prompt"] for row in written)


def test_p_is_refused_where_the_target_writes_no_prompts(tmp_path):
    rows = [{"row_id": i, "text": f"review {i}", "label": i % 2} for i in range(4)]
    bench = _hand_built(tmp_path, "shortcut-maze", {"train": rows, "test": rows})
    assert_refused(
        tmp_path,
        "-p sets the llm-prompt parameters of the prompts that --to lm-eval writes, and --to hf "
        "writes none: drop it.",
        "export", bench, "--to", "hf", "--out", tmp_path / "out", "-p", "label_names=[a, b]",
    )  # fmt: skip
    assert_refused(
        tmp_path,
        "label_nmes",
        "export", bench, "--to", "lm-eval", "--out", tmp_path / "out", "-p", "label_nmes=[a, b]",
    )  # fmt: skip
    with pytest.raises(ConfigError) as refused:  # in Python, the parameters' names
        export_benchmark(bench, to="hf", out=tmp_path / "out", params={"label_names": ["a", "b"]})
    assert str(refused.value) == (
        "params=... sets the llm-prompt parameters of the prompts that to='lm-eval' writes, and "
        "to='hf' writes none: drop it."
    )
