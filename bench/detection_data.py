"""The data sets of detection.py and one build + audit of the grid (what a worker process runs).

- corpus: the embedded review corpus (`shortcutlab generate`, seed 0; ratings 1-5, aspect columns);
- goemotions: the Shortcut Maze release's GoEmotions train.csv / test.csv (4 emotions);
- rotten-tomatoes: the 10,662 sentences, split once 80 / 20 by label (seed 0; no split is released);
- mnli: MultiNLI dev-matched, a seeded sample of MNLI_ROWS pairs (whole premises) per seed, audited
  unplanted: the hypothesis alone is the known artefact (Gururangan et al. 2018), the premise alone
  its null.

The shared ones are skipped when their folder is absent (SHORTCUTLAB_GOEMOTIONS,
SHORTCUTLAB_ROTTEN_TOMATOES and SHORTCUTLAB_MNLI name other places).
"""

from __future__ import annotations

import inspect
import json
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
import yaml
from detection_scoring import score_audit
from maze_cues import FAMILIES, audit_features, cue_names
from mnli_pairs import split_by_premise
from shared_data import shared_file

from shortcutlab.corpus.reviews import generate_corpus
from shortcutlab.data.loading import load_table
from shortcutlab.families.audit.api import audit_dataset
from shortcutlab.families.maze.build import build_maze_benchmark

LABEL_WORDS = Path(__file__).resolve().parent / "label_words"
MAZE_SHORTCUTS = tuple(FAMILIES)
PARTIAL_INPUT = "partial-input"
MNLI_ROWS = 3000  # the Shortcut Suite's Standard NLI set's size
SPLIT_SEED = 0
GOEMOTIONS = shared_file("SHORTCUTLAB_GOEMOTIONS", "goemotions-maze", "")
ROTTEN = shared_file("SHORTCUTLAB_ROTTEN_TOMATOES", "rotten-tomatoes", "sentences.csv")
MNLI = shared_file("SHORTCUTLAB_MNLI", "mnli-dev-matched", "dev_matched.tsv")


@dataclass(frozen=True)
class DataSet:
    """One data set of the grid: the shortcuts it can carry and what its labels mean."""

    name: str
    title: str
    shortcuts: tuple[str, ...]
    label_names: Mapping[Any, str] | None  # given to the audit's triage (label-name relatedness)
    words: str | None  # bench/label_words/WORDS.yaml: the genuine label words
    labels: tuple[Any, ...] | None = (
        None  # the label order of the builds' schedule, when not numeric
    )


DATASETS = {
    d.name: d
    for d in (
        DataSet(
            "corpus",
            "embedded corpus (4,000 train rows)",
            MAZE_SHORTCUTS,
            {1: "very negative", 2: "negative", 3: "neutral", 4: "positive", 5: "very positive"},
            "corpus",
        ),
        DataSet(  # concept shortcuts need distractor reviews rated on the task's labels: none here
            "goemotions",
            "GoEmotions (1,724 train rows)",
            tuple(s for s in MAZE_SHORTCUTS if FAMILIES[s] != "concept"),
            {0: "neutral", 1: "amusement", 2: "joy", 3: "excitement"},
            "goemotions",
        ),
        DataSet(
            "rotten-tomatoes",
            "Rotten Tomatoes (8,530 train rows)",
            tuple(s for s in MAZE_SHORTCUTS if FAMILIES[s] != "concept"),
            None,  # the labels are their names
            "rotten-tomatoes",
            ("negative", "positive"),
        ),
        DataSet(
            "mnli", f"MultiNLI dev-matched ({MNLI_ROWS:,} pairs)", (PARTIAL_INPUT,), None, None
        ),
    )
}


def prepare(dataset: str, work: Path) -> Path | None:
    """The data set's source (a folder with train.csv and test.csv; MultiNLI: its file), made
    under ``work`` where needed; None when a shared data set is absent."""
    folder = work / "data" / dataset
    if dataset == "corpus":
        if not (folder / "test.csv").is_file():
            folder.mkdir(parents=True, exist_ok=True)
            for split, frame in generate_corpus(seed=0).items():
                frame.to_csv(folder / f"{split}.csv", index=False)
        return folder
    if dataset == "goemotions":
        present = all((GOEMOTIONS / f"{s}.csv").is_file() for s in ("train", "test"))
        return GOEMOTIONS if present else None
    if dataset == "rotten-tomatoes":
        if not ROTTEN.is_file():
            return None
        if not (folder / "test.csv").is_file():
            folder.mkdir(parents=True, exist_ok=True)
            sentences = pd.read_csv(ROTTEN)
            test = sentences.groupby("label").sample(frac=0.2, random_state=SPLIT_SEED)
            sentences.drop(test.index).to_csv(folder / "train.csv", index=False)
            test.sort_index().to_csv(folder / "test.csv", index=False)
        return folder
    return MNLI if MNLI.is_file() else None


def label_words(dataset: str) -> dict[str, list[str]]:
    """The genuine words of each label (keys as strings), from bench/label_words/."""
    name = DATASETS[dataset].words
    if name is None:
        return {}
    listed = yaml.safe_load((LABEL_WORDS / f"{name}.yaml").read_text()) or {}
    return {str(label): [str(w) for w in found or ()] for label, found in listed.items()}


@dataclass(frozen=True)
class Task:
    """One build and its audit: λ 0 is the null build; MultiNLI's builds are its seeded samples."""

    dataset: str
    shortcut: str
    strength: float
    seed: int
    source: str
    out: str


def _label_name_option(names: Mapping[Any, str] | None) -> dict[str, Any]:
    # The triage's label names (issue 35): passed once audit_dataset takes them, so this bench
    # runs on trees with and without the triage.
    if names and "label_names" in inspect.signature(audit_dataset).parameters:
        return {"label_names": dict(names)}
    return {}


def _audit(task: Task, frame: pd.DataFrame, model: str, top: int, reuse: bool, **options) -> float:
    """Audit ``frame`` into task.out (skipped with ``reuse`` when audit.json is there); seconds."""
    if reuse and (Path(task.out) / "audit.json").is_file():
        return 0.0
    started = time.perf_counter()
    audit_dataset(
        frame,
        model=model,
        top=top,
        seed=task.seed,
        out=task.out,
        overwrite=True,
        **_label_name_option(DATASETS[task.dataset].label_names),
        **options,
    )
    return time.perf_counter() - started


def run_task(task: Task, model: str, top: int, reuse: bool) -> list[dict[str, Any]]:
    """Build, audit, score: one result per cue the audit is scored for (MultiNLI: two)."""
    started = time.perf_counter()
    if task.dataset == "mnli":
        frame = load_table(Path(task.source)).frame  # premise / hypothesis found by name
        sample, _ = split_by_premise(frame, MNLI_ROWS, task.seed)
        sample = sample.rename(columns={"text": "premise", "text_pair": "hypothesis"})
        built_s, cue_s = time.perf_counter() - started, 0.0
        columns = dict(text_col="premise", text_pair_col="hypothesis")
        audit_s = _audit(
            task, sample[["premise", "hypothesis", "label"]], model, top, reuse, **columns
        )
        cues = [(None, {"hypothesis alone"}), (0.0, {"premise alone"})]
    else:
        source = Path(task.source)
        bench = build_maze_benchmark(
            source / "train.csv",
            source / "test.csv",
            shortcut=task.shortcut,
            strength=task.strength,
            seed=task.seed,
            labels=DATASETS[task.dataset].labels,
        )
        built = bench["train"]
        built_s = time.perf_counter() - started
        options = bench.manifest["arguments"]["shortcut_options"]
        started = time.perf_counter()
        cue = cue_names(task.shortcut, options, built, pd.read_csv(source / "train.csv"))
        cue_s = time.perf_counter() - started
        features = audit_features(task.shortcut)
        audit_s = _audit(task, built[["text", "label"]], model, top, reuse, features=features)
        cues = [(task.strength, cue)]
    audit = json.loads((Path(task.out) / "audit.json").read_text())
    words = label_words(task.dataset)
    return [
        {
            "dataset": task.dataset,
            "shortcut": task.shortcut,
            "family": FAMILIES.get(task.shortcut, PARTIAL_INPUT),
            "strength": strength,
            "seed": task.seed,
            "cue_names": len(cue),
            "scores": score_audit(audit, cue, words),
            "build_s": built_s,
            "cue_s": cue_s,
            "audit_s": audit_s,
            "audit": str(Path(task.out) / "audit.json"),
        }
        for strength, cue in cues
    ]
