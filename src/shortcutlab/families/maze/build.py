"""Shortcut Maze benchmarks: train / validation / test / anti-test / original-test.

Training splits carry the shortcut at strength lambda, test and anti-test at the test strength (1 by
default, or ``"same"``: the training lambda, as the paper's released files do), the anti-test with
the label schedule reversed; original-test has no shortcut. All
splits first lose every pre-existing occurrence of the shortcut's vocabulary (section 2.2.1); then
the shortcut sees each input table once (``Shortcut.prepare``) and may drop rows from all of its
splits, e.g. rows whose style rewrite failed.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from shortcutlab.data.benchmark import MANIFEST, Benchmark, check_build_start
from shortcutlab.data.labels import LabelSpace
from shortcutlab.data.loading import LABEL, TEXT, TEXT_PAIR, LoadedTable, load_table
from shortcutlab.data.parts import INJECT_ON, PartsSwappedBack, swapped_parts
from shortcutlab.data.writing import atomic_output_dir, write_json
from shortcutlab.errors import ConfigError, DataError
from shortcutlab.families.maze.distractors import distractors_from_columns
from shortcutlab.families.maze.pipeline import (
    FileSink,
    InputTable,
    MemorySink,
    SplitJob,
    input_table,
    positions,
    render_splits,
)
from shortcutlab.families.maze.stratify import stratified_holdout
from shortcutlab.provenance import environment, tool_record
from shortcutlab.registry import check_choice
from shortcutlab.shortcuts import SHORTCUTS, make_shortcut
from shortcutlab.shortcuts.base import TEST_ROLE, TRAIN_ROLE, Shortcut, SplitPlan
from shortcutlab.shortcuts.concept import Distractor
from shortcutlab.shortcuts.schedule import SAMPLING, STRENGTH_MODES, base_schedule, check_strength

KEPT_NOTE = (
    "Occurrences of the cue vocabulary left in place because they are not the cue as inserted: "
    "a multi-word phrase that is not a discourse marker (e.g. 'I believe in truth and justice')."
)


def build_maze_benchmark(
    train: str | Any,
    test: str | Any,
    *,
    shortcut: str | Shortcut = "single-term",
    shortcut_options: Mapping[str, Any] | None = None,
    strength: float = 0.8,
    strength_mode: str = "mix",
    test_strength: float | str = 1.0,
    sampling: str = "exact",
    schedule: Sequence[float] | None = None,
    seed: int = 0,
    val_size: float = 0,
    labels: Sequence[Any] | None = None,
    distractors: Mapping[str, Distractor] | None = None,
    text_col: str = TEXT,
    label_col: str = LABEL,
    text_pair_col: str | None = None,
    inject_on: str = TEXT,
    encoding: str = "utf-8",
    on_empty: str = "drop",
    out: str | Path | None = None,
    fmt: str = "csv",
    overwrite: bool = False,
) -> Benchmark:
    """Build a Shortcut Maze benchmark from a training and a test table.

    Args:
        train, test: paths, DataFrames, ``datasets.Dataset`` objects or :class:`LoadedTable`.
        shortcut: a name from ``SHORTCUTS`` (single-term, synonym, category, register, author,
            bible, concept-occurrence, concept-correlation), or a configured injector; reusing
            one across builds reuses its work (a style shortcut rewrites each table once).
        shortcut_options: keyword options of the shortcut (e.g. ``{"term": "frankly"}``,
            ``{"rewriter": "file", "rewrites": {...}}``).
        strength: lambda for the training and validation splits, in [0, 1].
        strength_mode: ``"mix"`` (the released data) or ``"scale"`` (the paper's text).
        test_strength: lambda for test and anti-test, or ``"same"`` for the training lambda.
        sampling: ``"exact"`` cue counts per label (default) or independent ``"bernoulli"`` draws.
        schedule: per-label base probabilities instead of i/(K-1).
        seed: seeds every random choice; same inputs and seed give identical splits.
        val_size: validation rows carved from train (an int), or a fraction in (0, 1).
        labels: the label order; numeric labels sort numerically without it.
        distractors: aspect pools for the concept shortcuts; default: the tables'
            ``NAME_text``/``NAME_label`` columns.
        inject_on: ``"text"`` or ``"text_pair"``: the part that carries the cue (e.g. a
            tautology on the NLI hypothesis, Shortcut Suite 4.1); the other part is left alone.
        out: write the splits and ``manifest.json`` straight into this folder (atomically, in
            ``fmt``), row chunk by row chunk, instead of holding them in memory; the returned
            benchmark then reads each split from there on first use.

    Examples:
        >>> import pandas as pd
        >>> rows = pd.DataFrame({"text": ["Good. Fine.", "Bad.", "Okay."] * 20, "label": [2, 0, 1] * 20})
        >>> bench = build_maze_benchmark(rows, rows, shortcut="single-term", strength=1.0)
        >>> bench["test"].groupby("label")["shortcut"].apply(lambda s: (s != "").mean()).tolist()
        [0.0, 0.5, 1.0]
        >>> bench["anti_test"].groupby("label")["shortcut"].apply(lambda s: (s != "").mean()).tolist()
        [1.0, 0.5, 0.0]
    """
    strength = check_strength("strength", strength)
    test_lambda = _test_strength(test_strength, strength)
    check_choice("strength_mode", strength_mode, STRENGTH_MODES)
    check_choice("sampling", sampling, SAMPLING)
    check_build_start(fmt, seed, out, overwrite)
    check_choice("inject_on", inject_on, INJECT_ON)
    # A file's texts are read again batch by batch while rendering, not held whole in memory
    # (a cue on the second text swaps the columns of tables held in memory instead).
    loader = dict(
        text_col=text_col,
        label_col=label_col,
        text_pair_col=text_pair_col,
        encoding=encoding,
        on_empty=on_empty,
        stream_text=inject_on == TEXT,
    )
    train_table = (
        train if isinstance(train, LoadedTable) else load_table(train, role="train", **loader)
    )
    test_table = test if isinstance(test, LoadedTable) else load_table(test, role="test", **loader)
    if inject_on == TEXT_PAIR:
        train_table, test_table = swapped_parts(train_table), swapped_parts(test_table)
    train_name = f"'{train_table.source.path}'" if train_table.source.path else "the training table"
    label_space = LabelSpace.infer(train_table.index.column(LABEL), given=labels, source=train_name)
    _check_test_labels(train_table, test_table)
    resolved_schedule = (
        tuple(base_schedule(len(label_space), schedule).tolist()) if schedule is not None else None
    )

    if isinstance(shortcut, Shortcut):  # a configured injector, reused across builds
        if shortcut_options:
            raise ConfigError(
                "Pass shortcut_options only with a shortcut name; a Shortcut object is configured."
            )
        injector = shortcut
    else:
        options = dict(shortcut_options or {})
        if shortcut in SHORTCUTS.having("family", "concept"):
            options.setdefault(
                "distractors",
                distractors
                if distractors is not None
                else distractors_from_columns(train_table, test_table),
            )
        injector = make_shortcut(shortcut, options)
    injector.validate(label_space)

    carve_seed, *split_seeds = np.random.SeedSequence(int(seed)).spawn(5)
    train_source = input_table(injector, train_table, label_space, TRAIN_ROLE)
    test_source = input_table(injector, test_table, label_space, TEST_ROLE)
    val_mask = stratified_holdout(train_source.ranks, val_size, np.random.default_rng(carve_seed))

    def job(
        name: str,
        source: InputTable,
        rows: np.ndarray,
        lam: float,
        anti: bool,
        role: str,
        split_seed: np.random.SeedSequence,
    ) -> SplitJob:
        plan = SplitPlan(
            ranks=source.ranks[rows],
            labels=label_space,
            strength=lam,
            strength_mode=strength_mode,
            schedule=resolved_schedule,
            anti=anti,
            role=role,
            sampling=sampling,
            row_ids=source.table.row_ids()[rows]
            if len(rows) < len(source)
            else source.table.row_ids(),
        )
        return SplitJob(name, rows, plan, split_seed)

    everything = positions(np.ones(len(test_source), dtype=bool))
    train_jobs = [
        job(
            "train", train_source, positions(~val_mask), strength, False, TRAIN_ROLE, split_seeds[0]
        )
    ]
    if val_mask.any():
        validation = positions(val_mask)
        train_jobs.append(
            job("validation", train_source, validation, strength, False, TRAIN_ROLE, split_seeds[1])
        )
    test_jobs = [
        job("test", test_source, everything, test_lambda, False, TEST_ROLE, split_seeds[2]),
        job("anti_test", test_source, everything, test_lambda, True, TEST_ROLE, split_seeds[3]),
        SplitJob("original_test", everything),
    ]

    def render(sink: MemorySink | FileSink) -> dict[str, Any]:
        if inject_on == TEXT_PAIR:
            sink = PartsSwappedBack(sink)
        records = render_splits(injector, train_source, train_jobs, label_space, sink)
        records |= render_splits(injector, test_source, test_jobs, label_space, sink)
        return records

    manifest = {
        "tool": tool_record(),
        "kind": "shortcut-maze",
        "arguments": {
            "shortcut": injector.name,
            "shortcut_options": injector.get_params(),
            "strength": strength,
            "strength_mode": strength_mode,
            "test_strength": test_strength if test_strength == SAME else test_lambda,
            "sampling": sampling,
            "schedule": list(resolved_schedule) if resolved_schedule else None,
            "seed": int(seed),
            "val_size": val_size,
            "labels": list(labels) if labels else None,
            "text_col": text_col,
            "label_col": label_col,
            "text_pair_col": text_pair_col,
            "inject_on": inject_on,
            "encoding": encoding,
            "on_empty": on_empty,
        },
        "seed": int(seed),
        "labels": label_space.to_json(),
        "environment": environment(),
        "inputs": {"train": train_table.source.to_json(), "test": test_table.source.to_json()},
        "removed_occurrences": {},
        "kept_occurrences": {},
        "splits": {},
    }

    def finish(records: dict[str, Any]) -> None:
        manifest["removed_occurrences"] = _occurrences(train_source.removed, test_source.removed)
        manifest["kept_occurrences"] = _occurrences(train_source.kept, test_source.kept) | {
            "note": KEPT_NOTE
        }
        manifest["splits"] = records
        if train_source.record is not None or test_source.record is not None:
            manifest["preparation"] = {"train": train_source.record, "test": test_source.record}

    if out is None:
        memory = MemorySink()
        finish(render(memory))
        return Benchmark(splits=memory.finish(), labels=label_space, manifest=manifest)
    out = Path(out)
    manifest["arguments"]["format"] = fmt
    with atomic_output_dir(out, overwrite=overwrite) as tmp:
        files = FileSink(tmp, fmt)
        records = render(files)
        for name, written in files.finish().items():
            records[name].update(written)
        finish(records)
        write_json(tmp / MANIFEST, json.loads(json.dumps(manifest)))
    return Benchmark.load(out)


SAME = "same"


def _test_strength(value: float | str, strength: float) -> float:
    """The test λ: a number in [0, 1], or ``"same"`` for the training λ (the paper's released
    GoEmotions files build test and anti-test at the training λ; section 3.1 of the Shortcut Maze
    paper describes test sets at full strength, which stays the default)."""
    if value == SAME:
        return strength
    if isinstance(value, str):
        raise ConfigError(
            f"The 'test_strength' parameter must be a float in [0, 1] or 'same' (the training "
            f"strength). Got {value!r} instead."
        )
    return check_strength("test_strength", value)


def _occurrences(train: np.ndarray, test: np.ndarray) -> dict[str, Any]:
    return {
        "train": int(train.sum()),
        "test": int(test.sum()),
        "total": int(train.sum() + test.sum()),
    }


def _check_test_labels(train: LoadedTable, test: LoadedTable) -> None:
    import pyarrow.compute as pc

    seen = train.index.column(LABEL).unique()
    test_labels = test.index.column(LABEL)
    unseen = pc.unique(test_labels.filter(pc.invert(pc.is_in(test_labels, value_set=seen))))
    if len(unseen):
        raise DataError(
            f"The test table has label(s) {', '.join(map(str, unseen.to_pylist()))} that never occur in the "
            f"training table, so no model can learn them. Remove those rows or check --label-col."
        )
