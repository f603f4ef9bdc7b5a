"""Create or resume a task folder, and read its progress.

A task folder (by default ``SOURCE/annotations/KIND``, where ``shortcutlab report`` finds it) is
written whole or not at all: the plan is drawn first (a source that lacks what the kind needs is
refused before anything exists), then the store is written into a hidden sibling folder and
renamed into place.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from shortcutlab.annotate.kinds import TaskKind, TaskPlan
from shortcutlab.annotate.store import AnnotationStore
from shortcutlab.data.writing import check_no_file_above, follow_umask
from shortcutlab.errors import ConfigError, DataError, InputFileError, OutputExistsError, listed


def default_folder(source: Path, kind: str) -> Path:
    return Path(source) / "annotations" / kind


def _same_source(recorded: str, source: Path) -> bool:
    return recorded == str(source) or Path(recorded).resolve() == Path(source).resolve()


def check_resumable(folder: Path, kind: str, source: Path) -> None:
    """Refuse to serve ``folder`` for a different kind or source than it was created for."""
    with AnnotationStore.open(folder) as store:
        meta = store.meta()
    if meta["kind"] != kind or not _same_source(meta["source"], source):
        raise ConfigError(
            f"'{folder}' holds a {meta['kind']} task over '{meta['source']}', not {kind} over "
            f"'{source}'. Pass --task {meta['kind']} with that source to resume it, or another "
            "--folder for a new task."
        )


DEFAULT_SAMPLE, DEFAULT_SEED = 50, 0


def prepare_task(
    source: Path,
    kind: TaskKind,
    *,
    folder: Path,
    sample: int | None = None,
    seed: int | None = None,
    **options: Any,
) -> bool:
    """Make ``folder`` hold ``kind``'s task over ``source``; True when it was created now, False
    when an existing task of the same kind and source is resumed.

    ``sample``, ``seed`` and ``options`` (the kind's, e.g. benchmark, label_names) are the ones the
    user gave: None / absent means the stored ones when resuming, and 50 / 0 / the kind's defaults
    when creating. A resumed task whose stored values differ from given ones is refused rather
    than silently served with its old ones."""
    source, folder = Path(source), Path(folder)
    if not source.exists():
        raise InputFileError(
            f"the source '{source}' does not exist: pass a run, benchmark or audit folder."
        )
    if sample is not None and sample < 1:
        raise ConfigError(f"--sample must be a positive number of items; got {sample}.")
    if AnnotationStore.exists(folder):
        check_resumable(folder, kind.name, source)
        check_same_draw(folder, sample=sample, seed=seed, options=options)
        return False
    check_no_file_above(folder)
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise OutputExistsError(
            f"'{folder}' exists and holds no annotation task; choose another --folder."
        )
    sample = DEFAULT_SAMPLE if sample is None else sample
    seed = DEFAULT_SEED if seed is None else seed
    plan = kind.plan(source, sample=sample, seed=seed, **options)
    if not plan.items:
        raise DataError(f"the {kind.name} task over '{source}' has no items to annotate.")
    _create_atomically(folder, plan, sample=sample, seed=seed, options=options)
    return True


def check_same_draw(
    folder: Path, *, sample: int | None, seed: int | None, options: dict[str, Any]
) -> None:
    """Refuse a resume given a sample, seed or kind option other than the stored task's."""
    with AnnotationStore.open(folder) as store:
        meta = store.meta()
    # A task stored before its options were recorded was made without any.
    stored_options = json.loads(meta.get("options", "{}"))
    stored = {"sample": int(meta["sample"]), "seed": int(meta["seed"])} | stored_options
    given = {"sample": sample, "seed": seed} | options
    differing = [
        name for name, value in given.items() if value is not None and stored.get(name) != value
    ]
    if differing:
        stored_values = ", ".join(
            f"{_flag(name)} {stored[name]}" if name in stored else f"no {_flag(name)}"
            for name in differing
        )
        raise ConfigError(
            f"'{folder}' holds a task drawn with {stored_values}; omit "
            f"{listed(map(_flag, differing))} to resume it as stored, or choose another "
            "--folder for a new draw."
        )


def _flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def _create_atomically(
    folder: Path, plan: TaskPlan, *, sample: int, seed: int, options: dict[str, Any]
) -> None:
    folder.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{folder.name}-", dir=folder.parent))
    try:
        follow_umask(staging)
        AnnotationStore.create(staging, plan, sample=sample, seed=seed, options=options).close()
        if folder.exists():  # an empty folder (checked above)
            folder.rmdir()
        os.replace(staging, folder)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def sample_summary(facts: Mapping[str, Any], items: int) -> str:
    """How many items a task holds and where they come from: "30 items, 10 from each of the 3
    builds". ``--sample`` counts per build (label, verify-attribute): each build's summary row
    needs its own sample, which a total split over the builds would shrink as builds are added."""
    if facts.get("drawn"):  # a kind that words its own draw (shortcut-or-signal)
        return f"{items} items: {facts['drawn']}"
    builds = facts.get("builds") or {}
    counts = [int(build.get("sampled", 0)) for build in builds.values()]
    if len(counts) < 2:
        return f"{items} items"
    if len(set(counts)) == 1:
        return f"{items} items, {counts[0]} from each of the {len(counts)} builds"
    return f"{items} items from {len(counts)} builds: {', '.join(map(str, counts))}"


def task_progress(folder: Path) -> tuple[dict[str, str], pd.DataFrame]:
    """The task's facts (kind, source, sample, seed, items, drawn: :func:`sample_summary`) and one
    row per annotator: answered, items, and the share answered."""
    with AnnotationStore.open(folder) as store:
        meta = store.meta()
        total = store.item_count()
        rows = [(name, store.answered(name)) for name in store.annotators()]
    facts = {
        "kind": meta["kind"],
        "source": meta["source"],
        "sample": meta["sample"],
        "seed": meta["seed"],
        "items": str(total),
        "drawn": sample_summary(json.loads(meta.get("facts", "{}")), total),
    }
    progress = pd.DataFrame(rows, columns=["annotator", "answered"])
    progress["items"] = total
    progress["share"] = progress["answered"] / total if total else float("nan")
    return facts, progress.set_index("annotator")


__all__ = [
    "DEFAULT_SAMPLE",
    "DEFAULT_SEED",
    "check_resumable",
    "check_same_draw",
    "default_folder",
    "prepare_task",
    "sample_summary",
    "task_progress",
]
