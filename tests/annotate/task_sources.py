"""Small real sources for the task-kind tests (a Maze grid run, an MPS grid run, a style build, a
CAT output with check pairs, an audit folder) and a helper that records answers through the
AnnotationStore."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from shortcutlab.annotate.kinds import Item, TaskPlan
from shortcutlab.annotate.store import AnnotationStore
from shortcutlab.annotate.tasks import task_kind
from shortcutlab.corpus import generate_corpus
from shortcutlab.data.loading import load_table
from shortcutlab.data.options import InputOptions
from shortcutlab.families import parse_spec, run_experiment
from shortcutlab.families.audit.api import audit_dataset
from shortcutlab.families.audit.scan.features import FeatureConfig
from shortcutlab.families.cat.run import CatConfig, run_cat, save_cat
from shortcutlab.families.maze.build import build_maze_benchmark
from shortcutlab.families.mps.build import build_mps_benchmark
from tests.annotate.served import run_cli
from tests.families.cat.cat_data import pair_table, write_pair_files
from tests.families.mps.test_grid import write_spec

MAZE_SPEC = {
    "name": "annotate-maze",
    "data": {"builtin": "reviews", "train_size": 300, "test_size": 200},
    "shortcuts": ["single-term"],
    "strengths": [1.0],
    "models": [{"name": "tfidf-logreg"}],
    "seeds": [0],
    "bootstrap": 100,
}


@pytest.fixture(scope="session")
def maze_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("maze") / "run"
    run_experiment(parse_spec(MAZE_SPEC), out)
    return out


@pytest.fixture(scope="session")
def mps_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("mps")
    with pytest.warns(Warning):
        run_experiment(write_spec(folder, seeds="[0]"), folder / "run")
    return folder / "run"


@pytest.fixture(scope="session")
def style_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    corpus = generate_corpus(train_size=200, test_size=60, seed=1)
    out = tmp_path_factory.mktemp("style") / "build"
    build_maze_benchmark(
        corpus["train"], corpus["test"], shortcut="register", inputs=InputOptions(out=out)
    )
    return out


CONCEPTS = {
    "Comedy": {"description": "humour and jokes", "keywords": ["comedy", "jokes"]},
    "Drama": {"description": "serious themes", "keywords": ["drama", "tearful"]},
}


@pytest.fixture(scope="session")
def concept_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An MPS build around a sentence concept (the keywords method: offline)."""
    rows = [
        {
            "text": f"a {['comedy jokes', 'drama tearful'][i % 2]} film {i} was "
            + ("great" if i % 3 else "dull"),
            "label": "pos" if i % 3 else "neg",
        }
        for i in range(600)
    ]
    out = tmp_path_factory.mktemp("concept") / "build"
    build_mps_benchmark(
        pd.DataFrame(rows),
        attribute="sentence-concept",
        attribute_options={"categories": CONCEPTS, "method": "keywords"},
        test_size=60,
        inputs=InputOptions(out=out),
    )
    return out


@pytest.fixture(scope="session")
def cat_output(tmp_path_factory: pytest.TempPathFactory) -> Path:
    options = dict(text_col="premise", text_pair_col="hypothesis")
    train = load_table(pair_table(400, 1, cue=True), **options).frame
    test = load_table(pair_table(200, 2, cue=True), **options).frame
    out = tmp_path_factory.mktemp("cat") / "out"
    save_cat(run_cat(train, test, CatConfig(default_label="neutral")), out, export_check=12)
    return out


CAT_SPEC = """family: cat
name: annotate-cat
data: {name: cue, train: train.csv, test: test.csv, text: premise, text_pair: hypothesis}
models: [{name: tfidf-logreg}]
seeds: [0]
cat: {k: 2, default_label: neutral}
"""


@pytest.fixture(scope="session")
def cat_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A CAT grid run on the same pair data as :func:`cat_output` (same seed, same model)."""
    folder = tmp_path_factory.mktemp("catrun")
    write_pair_files(folder, cue=True)
    (folder / "spec.yaml").write_text(CAT_SPEC, encoding="utf-8")
    run_experiment(folder / "spec.yaml", folder / "run")
    return folder / "run"


def cue_rows(rows: int = 160) -> pd.DataFrame:
    """Labels 0 / 1; 'honestly' in most label-1 rows, 'frankly' in most label-0 rows, and four
    topic words spread over both labels."""
    made = []
    for i in range(rows):
        label = i % 2
        topic = ["film", "plot", "scene", "cast"][i % 4 // 2 * 2 + (i // 7) % 2]
        cue = ["frankly", "honestly"][label] if i % 8 else ""
        made.append({"text": f"{cue} the {topic} number {i}".strip(), "label": label})
    return pd.DataFrame(made)


@pytest.fixture(scope="session")
def audit_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``audit_dataset(..., out=DIR)`` with a measured model on :func:`cue_rows` (words only).
    Copy it (:func:`copied`) before creating a task in it."""
    out = tmp_path_factory.mktemp("audit") / "audit"
    features = FeatureConfig(surface=False, attributes=(), packaged_lexicons=False)
    audit_dataset(cue_rows(), model="tfidf-logreg", top=10, features=features, out=out)
    return out


def copied(folder: Path, into: Path) -> Path:
    """A copy of a session-wide source, for a test that writes a task folder into it."""
    return Path(shutil.copytree(folder, into / folder.name))


def create_task(
    kind: str, source: Path, folder: Path, *, sample: int, seed: int = 0, **options: Any
) -> TaskPlan:
    plan = task_kind(kind).plan(source, sample=sample, seed=seed, **options)
    AnnotationStore.create(folder, plan, sample=sample, seed=seed).close()
    return plan


def answer(
    folder: Path,
    annotator: str,
    choose: Callable[[int, Item], dict[str, str]],
    *,
    first: int | None = None,
) -> None:
    """Record ``annotator``'s answers (``choose(position, item)``) to the first ``first`` items,
    each checked by the task kind as the app checks it."""
    with AnnotationStore.open(folder) as store:
        plan = store.plan()
        kind = task_kind(plan.kind)
        for position, item in enumerate(plan.items[:first]):
            store.record(
                item.item_id, annotator, kind.check_answer(plan.form, choose(position, item))
            )


def audit_with_judgements(judgements: Path, folder: Path) -> tuple[dict[str, Any], str]:
    """``shortcutlab audit`` of :func:`cue_rows` with ``--judgements`` and ``--fix`` (erm and
    mask-candidate), as a user runs it after exporting a task: its audit.json and stdout."""
    data = folder / "rows.csv"
    cue_rows().to_csv(data, index=False)
    out = folder / "judged-audit"
    done = run_cli(
        "audit", str(data), "--model", "tfidf-logreg", "--fix", "--methods", "erm,mask-candidate",
        "--no-attributes", "--no-surface", "--no-packaged-lexicons",
        "--judgements", str(judgements), "--out", str(out), timeout=180,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads((out / "audit.json").read_text(encoding="utf-8")), done.stdout
