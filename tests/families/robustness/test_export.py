"""A robustness build exported for use elsewhere: ``--to hf`` (a split per class) and
``--to lm-eval`` (a task per class, its rows the build's rows, read back by lm-eval itself)."""

from __future__ import annotations

import json

import pandas as pd
import pytest
import yaml
from typer.testing import CliRunner

from shortcutlab import InputOptions, build_robustness_benchmark
from shortcutlab.cli.app import app

LABELS = ["neg", "pos"]
runner = CliRunner()


def test_export_to_hf_holds_each_class_as_a_split(review_files, tmp_path):
    datasets = pytest.importorskip("datasets")
    bench = tmp_path / "bench"
    build_robustness_benchmark(
        review_files["test"],
        perturbations="case-upper",
        labels=LABELS,
        inputs=InputOptions(out=bench),
    )
    done = runner.invoke(app, ["export", str(bench), "--to", "hf", "--out", str(tmp_path / "hf")])
    assert done.exit_code == 0, done.output
    exported = datasets.load_from_disk(str(tmp_path / "hf"))
    written = pd.read_csv(bench / "case-upper.csv")
    upper = exported["case_upper"].to_pandas()
    assert upper["text"].tolist() == written["text"].tolist()
    assert upper["row_id"].tolist() == written["row_id"].tolist()


def test_export_to_lm_eval_writes_a_task_per_class_holding_its_paired_rows(review_files, tmp_path):
    bench = tmp_path / "robust"
    build_robustness_benchmark(
        review_files["test"],
        train=review_files["train"],
        perturbations={"case-upper": {}, "negation-add": {"expect": "flip"}},
        labels=LABELS,
        inputs=InputOptions(out=bench),
    )
    out = tmp_path / "lm"
    done = runner.invoke(app, ["export", str(bench), "--to", "lm-eval", "--out", str(out)])
    assert done.exit_code == 0, done.output
    group = yaml.safe_load((out / "shortcutlab_robust.yaml").read_text())
    tasks = ["shortcutlab_robust_test", "shortcutlab_robust_case_upper"]
    tasks.append("shortcutlab_robust_negation_add")
    assert group["task"] == tasks  # the fitting split (train) is no task
    for split, kind in {"case-upper": "INV", "negation-add": "DIR"}.items():
        name = split.replace("-", "_")
        text = (out / f"shortcutlab_robust_{name}.yaml").read_text()
        task = yaml.safe_load(text.split("\n", 1)[1])  # past lm-eval's !function line
        assert task["metadata"]["perturbation_kind"] == kind
        assert task["dataset_kwargs"]["data_files"] == {name: f"data/{name}.jsonl"}
        lines = (out / "data" / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
        rows = pd.DataFrame([json.loads(line) for line in lines])
        written = pd.read_csv(bench / f"{split}.csv")
        assert rows["row_id"].tolist() == written["row_id"].tolist()
        assert rows["text"].tolist() == written["text"].tolist()
        assert rows["label"].tolist() == written["label"].tolist()  # DIR: the expected label
        assert all(
            text in prompt for text, prompt in zip(rows["text"], rows["prompt"], strict=True)
        )
    assert "join on doc.row_id" in (out / "README.md").read_text()


def test_lm_eval_itself_reads_each_class_task(review_files, tmp_path, monkeypatch):
    pytest.importorskip("lm_eval")
    from lm_eval.tasks import TaskManager, get_task_dict

    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf-home"))
    bench, out = tmp_path / "robust", tmp_path / "lm"
    build_robustness_benchmark(
        review_files["test"],
        perturbations="typos-swap",
        labels=LABELS,
        inputs=InputOptions(out=bench),
    )
    done = runner.invoke(app, ["export", str(bench), "--to", "lm-eval", "--out", str(out)])
    assert done.exit_code == 0, done.output
    manager = TaskManager(include_path=str(out), include_defaults=False)
    (tasks,) = get_task_dict(["shortcutlab_robust"], manager).values()
    swapped = tasks["shortcutlab_robust_typos_swap"]
    docs = list(swapped.test_docs())
    assert [d["row_id"] for d in docs] == pd.read_csv(bench / "typos-swap.csv")["row_id"].tolist()
