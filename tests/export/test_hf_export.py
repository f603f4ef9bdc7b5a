"""``shortcutlab export BENCH --to hf``: Maze and MPS benchmarks round-trip through the export,
``load_from_disk`` / ``load_dataset("parquet")`` and evaluation with the same results; the card's
YAML; the repository layout read as input; the Hub push (client mocked); refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from shortcutlab.data.benchmark import Benchmark
from shortcutlab.data.labels import LabelSpace
from shortcutlab.data.loading import load_table
from tests.cli.refusals import assert_refused, invoke
from tests.conftest import folder_bytes

datasets = pytest.importorskip("datasets")

MAZE_SPLITS = ["train", "validation", "test", "anti_test", "original_test"]
MPS_SPLITS = ["imbalanced", "balanced", "validation", "test"]


@pytest.fixture
def built(tmp_path, corpus_files):
    """A small Maze and MPS benchmark built from the embedded corpus, each exported to hf."""
    maze, mps = tmp_path / "maze", tmp_path / "mps"
    train, test = corpus_files["train"], corpus_files["test"]
    for args in (
        ("build", "maze", "--train", train, "--test", test, "--shortcut", "single-term",
         "--val-size", 60, "--out", maze),
        ("build", "mps", "--train", train, "--validation-size", 30, "--out", mps),
    ):  # fmt: skip
        assert invoke(*args).exit_code == 0
    for folder in (maze, mps):
        result = invoke("export", folder, "--to", "hf", "--out", f"{folder}-hf", "--license", "mit")
        assert result.exit_code == 0, result.output
        assert result.stdout.strip() == f"Exported {folder} as hf to {folder}-hf"
    return tmp_path


def _evaluate(tmp_path: Path, out: str, source: str | Path, *, as_splits: bool) -> Path:
    common = ("--seeds", 1, "--bootstrap", 100, "--out", tmp_path / out)
    if as_splits:
        flags = ("--train", "--dev", "--test", "--anti-test", "--original-test")
        named = [
            x for flag, s in zip(flags, MAZE_SPLITS, strict=True) for x in (flag, f"{source}::{s}")
        ]
        result = invoke("evaluate", *named, *common)
    else:
        result = invoke("evaluate", source, *common)
    assert result.exit_code == 0, result.output
    return tmp_path / out


def _figures(results: Path) -> dict:
    """results.json without what names the source (its path, kind, shortcut and λ as stated)."""
    record = json.loads((results / "results.json").read_text())
    record.pop("benchmark")
    for key in ("dataset", "shortcut", "strength", "strength_mode"):
        record["statistics"].pop(key, None)
    return record


def test_maze_round_trips_through_the_export_with_identical_results(built):
    export = built / "maze-hf"
    loaded = datasets.load_from_disk(str(export))
    assert list(loaded) == MAZE_SPLITS
    features = loaded["train"].features
    assert features["label"].names == ["1", "2", "3", "4", "5"]
    assert features["row_id"] == datasets.Value("int64")
    assert features["cue_spans"] == datasets.Sequence(datasets.Sequence(datasets.Value("int64")))
    original = Benchmark.load(built / "maze")
    for split in MAZE_SPLITS:
        frame = original[split]
        rows = loaded[split]
        assert rows["row_id"] == frame["row_id"].tolist()
        assert [int(features["label"].int2str(i)) for i in rows["label"]] == frame["label"].tolist()
        assert rows["cue_spans"] == [json.loads(s) for s in frame["cue_spans"]]
        assert rows["shortcut"] == frame["shortcut"].tolist()
    direct = _evaluate(built, "direct", built / "maze", as_splits=False)
    from_export = _evaluate(built, "export", export, as_splits=True)
    assert _figures(from_export) == _figures(direct)
    assert (from_export / "predictions.csv").read_bytes() == (
        direct / "predictions.csv"
    ).read_bytes()
    # The repository layout alone (card + data/*.parquet) gives the same results again.
    repository = built / "repository"
    (repository / "data").mkdir(parents=True)
    (repository / "README.md").write_bytes((export / "README.md").read_bytes())
    for parquet in (export / "data").iterdir():
        (repository / "data" / parquet.name).write_bytes(parquet.read_bytes())
    from_repository = _evaluate(built, "repository-results", repository, as_splits=True)
    assert (from_repository / "predictions.csv").read_bytes() == (
        direct / "predictions.csv"
    ).read_bytes()


def test_parquet_files_load_with_load_dataset_and_hold_the_same_rows(built, tmp_path):
    export = built / "maze-hf"
    files = {s: str(export / "data" / f"{s}-00000-of-00001.parquet") for s in MAZE_SPLITS}
    from_parquet = datasets.load_dataset(
        "parquet", data_files=files, cache_dir=str(tmp_path / "cache")
    )
    from_disk = datasets.load_from_disk(str(export))
    for split in MAZE_SPLITS:
        assert from_parquet[split].features == from_disk[split].features
        assert from_parquet[split].to_list() == from_disk[split].to_list()


def _mps_metrics(benchmark: Benchmark, folder: Path) -> dict:
    from shortcutlab.families.mps.cell import MpsTask, execute_mps

    task = MpsTask(
        benchmark_id="b", benchmark_dir=str(folder), cross_tests={},
        model_name="tfidf-logreg", model_params={}, cells=[("cell", 0)],
    )  # fmt: skip
    outcome = execute_mps(task, {"b": benchmark})
    assert not outcome.failed, outcome.cells[0]
    return outcome.cells[0].metrics


def test_mps_round_trips_through_load_from_disk_with_identical_results(built):
    export = built / "mps-hf"
    loaded = datasets.load_from_disk(str(export))
    assert list(loaded) == MPS_SPLITS
    assert loaded["imbalanced"].features["negation"] == datasets.Value("string")
    names = loaded["test"].features["label"].names
    splits = {s: load_table(f"{export}::{s}", on_empty="keep", role=s).frame for s in MPS_SPLITS}
    imported = Benchmark(splits=splits, labels=LabelSpace(tuple(int(n) for n in names)))
    original = Benchmark.load(built / "mps")
    assert _mps_metrics(imported, export) == _mps_metrics(original, built / "mps")


def test_the_card_yaml_parses_names_the_license_and_the_build(built):
    card = (built / "maze-hf" / "README.md").read_text()
    front = yaml.safe_load(card.split("---\n")[1])
    assert front["license"] == "mit"
    assert front["task_categories"] == ["text-classification"]
    assert [f["split"] for f in front["configs"][0]["data_files"]] == MAZE_SPLITS
    assert {f["path"] for f in front["configs"][0]["data_files"]} == {
        f"data/{p.name}" for p in (built / "maze-hf" / "data").iterdir()
    }
    label = next(f for f in front["dataset_info"]["features"] if f["name"] == "label")
    assert label["dtype"]["class_label"]["names"] == {str(i): str(i + 1) for i in range(5)}
    manifest = json.loads((built / "maze" / "manifest.json").read_text())
    assert (
        "| shortcut | single-term |" in card
        and "| λ (strength of the training splits) | 0.8 |" in card
    )
    assert manifest["inputs"]["train"]["sha256"] in card
    assert "Navigating the Shortcut Maze" in card
    assert "MPS: A Multi-Perspective Benchmark" in (built / "mps-hf" / "README.md").read_text()


def test_the_export_is_byte_identical_when_repeated(built):
    again = invoke(
        "export", built / "maze", "--to", "hf", "--out", built / "again", "--license", "mit"
    )
    assert again.exit_code == 0, again.output
    assert folder_bytes(built / "again") == folder_bytes(built / "maze-hf")


def test_push_to_hub_uploads_the_card_and_parquet_files(built, monkeypatch):
    huggingface_hub = pytest.importorskip("huggingface_hub")
    calls = []

    class FakeApi:
        def create_repo(self, repo_id, **options):
            calls.append(("create", repo_id, options["repo_type"]))
            return f"https://huggingface.co/datasets/{repo_id}"

        def upload_folder(self, **options):
            calls.append(("upload", options["repo_id"], sorted(options["allow_patterns"])))
            assert (Path(options["folder_path"]) / "README.md").is_file()

    monkeypatch.setattr(huggingface_hub, "HfApi", FakeApi)
    result = invoke(
        "export", built / "maze", "--to", "hf", "--out", built / "pushed",
        "--push-to-hub", "someone/maze-st",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Pushed to the Hub dataset repository someone/maze-st" in result.stdout
    assert calls == [
        ("create", "someone/maze-st", "dataset"),
        ("upload", "someone/maze-st", ["README.md", "data/*.parquet"]),
    ]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (
            ("missing", "--to", "hf"),
            "'{root}/missing' is not a benchmark folder: it has no manifest.json",
        ),
        (("maze", "--to", "lm"), "Unknown export target 'lm'. Known export targets: hf, lm-eval."),
        (("maze", "--to", "hf", "--license", " "), "The 'license' parameter must name a license"),
    ],
)
def test_bad_input_is_refused_in_one_line_and_writes_nothing(built, arguments, message):
    source, *rest = arguments
    assert_refused(
        built, message.format(root=built), "export", built / source, *rest, "--out", built / "new"
    )


def test_a_non_empty_out_folder_is_refused(built):
    assert_refused(
        built, "exists and is not empty. Choose another --out or pass --overwrite.",
        "export", built / "maze", "--to", "hf", "--out", built / "mps",
    )  # fmt: skip
