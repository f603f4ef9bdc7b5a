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
from dataclasses import dataclass
from typing import Any

import numpy as np

from shortcutlab.data.benchmark import MANIFEST, Benchmark, check_build_start
from shortcutlab.data.label_agreement import agree_labels
from shortcutlab.data.labels import LabelSpace
from shortcutlab.data.loading import LABEL, TEXT, TEXT_PAIR, LoadedTable
from shortcutlab.data.options import InputOptions, reading_options
from shortcutlab.data.overlap import check_test_overlap
from shortcutlab.data.parts import INJECT_ON, PartsSwappedBack, swapped_parts
from shortcutlab.data.writing import atomic_output_dir, write_json
from shortcutlab.errors import ConfigError, DataError, ended, knob, listed
from shortcutlab.families.maze import FAMILY
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
from shortcutlab.params import check_choice, quoted
from shortcutlab.provenance import environment, tool_record
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
    shortcut: str | Shortcut,
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
    inject_on: str = TEXT,
    text_col: str | None = None,
    label_col: str | None = None,
    text_pair_col: str | None = None,
    encoding: str | None = None,
    on_empty: str | None = None,
    inputs: InputOptions | None = None,
) -> Benchmark:
    """Build a Shortcut Maze benchmark from a training and a test table.

    Args:
        train: a path, DataFrame, ``datasets.Dataset`` or :class:`LoadedTable`.
        test: the test table, in the same forms.
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
        text_col: the column holding the text (default ``text``). The five reading settings
            can instead all be given, with where to write, in ``inputs`` (giving both is refused).
        label_col: the column holding the label (default ``label``).
        text_pair_col: the second text column, for paired inputs.
        encoding: the encoding of the files read (default UTF-8).
        on_empty: rows with an empty text or label: ``"drop"`` them (the default) or ``"error"``.
        inputs: the columns and encoding of the input tables, and where to write: with
            ``inputs.out`` the splits and ``manifest.json`` go straight into that folder
            (atomically, in ``inputs.fmt``), row chunk by row chunk, instead of being held in
            memory; the returned benchmark then reads each split from there on first use.

    Examples:
        >>> import pandas as pd
        >>> rows = pd.DataFrame({"text": ["Good. Fine.", "Bad.", "Okay."] * 20, "label": [2, 0, 1] * 20})
        >>> test = rows.assign(text=rows["text"].str.replace(".", "!"))  # not the training rows
        >>> bench = build_maze_benchmark(rows, test, shortcut="single-term", strength=1.0)
        >>> bench["test"].groupby("label")["shortcut"].apply(lambda s: (s != "").mean()).tolist()
        [0.0, 0.5, 1.0]
        >>> bench["anti_test"].groupby("label")["shortcut"].apply(lambda s: (s != "").mean()).tolist()
        [1.0, 0.5, 0.0]
    """
    inputs = reading_options(
        "build_maze_benchmark",
        inputs,
        InputOptions,
        text_col=text_col,
        label_col=label_col,
        text_pair_col=text_pair_col,
        encoding=encoding,
        on_empty=on_empty,
    )
    strength = check_strength("strength", strength)
    test_lambda = _test_strength(test_strength, strength)
    check_choice("strength_mode", strength_mode, STRENGTH_MODES)
    check_choice("sampling", sampling, SAMPLING)
    check_build_start(inputs.fmt, seed, inputs.out, inputs.overwrite, (train, test))
    check_choice("inject_on", inject_on, INJECT_ON)
    train_table, test_table = _read_tables(train, test, inputs, inject_on)
    label_space = _label_space(train_table, test_table, labels)
    resolved = None if schedule is None else base_schedule(len(label_space), schedule).tolist()
    design = SplitDesign(label_space, strength, test_lambda, strength_mode, sampling, resolved)
    injector = _injector(shortcut, shortcut_options, distractors, train_table, test_table)
    injector.validate(label_space)
    check_test_overlap(train_table, test_table)  # after the options: they are quicker to fix
    planned = _plan(
        injector, design, (train_table, test_table), val_size, seed, inject_on, inputs.on_empty
    )
    manifest = _manifest(
        planned,
        inputs,
        test_strength=test_strength if test_strength == SAME else test_lambda,
        seed=seed,
        val_size=val_size,
        labels=labels,
    )
    return planned.write(manifest, inputs)


@dataclass(frozen=True)
class SplitDesign:
    """What the plans of a build's splits share: the labels, both λ and how a λ is applied."""

    labels: LabelSpace
    strength: float  # training and validation
    test_strength: float  # test and anti-test
    strength_mode: str
    sampling: str
    schedule: list[float] | None  # per-label base probabilities (default: i / (K - 1))

    def job(
        self,
        name: str,
        source: InputTable,
        rows: np.ndarray,
        role: str,
        seed: np.random.SeedSequence,
        *,
        anti: bool = False,
    ) -> SplitJob:
        """The split ``name``: rows ``rows`` of ``source`` at the λ of ``role`` (``anti``: with
        the label schedule reversed)."""
        plan = SplitPlan(
            ranks=source.ranks[rows],
            labels=self.labels,
            strength=self.strength if role == TRAIN_ROLE else self.test_strength,
            strength_mode=self.strength_mode,
            schedule=None if self.schedule is None else tuple(self.schedule),
            anti=anti,
            role=role,
            sampling=self.sampling,
            row_ids=source.table.row_ids()[rows]
            if len(rows) < len(source)
            else source.table.row_ids(),
        )
        return SplitJob(name, rows, plan, seed)


@dataclass
class PlannedBuild:
    """A build ready to render: the injector, both input tables and the splits made from each."""

    injector: Shortcut
    design: SplitDesign
    train: InputTable
    test: InputTable
    train_jobs: list[SplitJob]
    test_jobs: list[SplitJob]
    inject_on: str

    def tables(self) -> dict[str, InputTable]:
        return {"train": self.train, "test": self.test}

    def render(self, sink: MemorySink | FileSink) -> dict[str, Any]:
        """Every split into ``sink``; returns each split's record."""
        if self.inject_on == TEXT_PAIR:
            sink = PartsSwappedBack(sink)
        labels = self.design.labels
        records = render_splits(self.injector, self.train, self.train_jobs, labels, sink)
        records |= render_splits(self.injector, self.test, self.test_jobs, labels, sink)
        return records

    def write(self, manifest: dict[str, Any], inputs: InputOptions) -> Benchmark:
        """Render into memory, or straight into ``inputs.out`` (atomically) with the manifest."""
        if inputs.out is None:
            memory = MemorySink()
            self._finish(manifest, self.render(memory))
            return Benchmark(splits=memory.finish(), labels=self.design.labels, manifest=manifest)
        manifest["arguments"]["format"] = inputs.fmt
        with atomic_output_dir(inputs.out, overwrite=inputs.overwrite) as tmp:
            files = FileSink(tmp, inputs.fmt)
            records = self.render(files)
            for name, written in files.finish().items():
                records[name].update(written)
            self._finish(manifest, records)
            write_json(tmp / MANIFEST, json.loads(json.dumps(manifest)))
        return Benchmark.load(inputs.out)

    def _finish(self, manifest: dict[str, Any], records: dict[str, Any]) -> None:
        """What rendering found: the occurrences removed and kept, and every split's record."""
        manifest["removed_occurrences"] = _occurrences(self.train.removed, self.test.removed)
        manifest["kept_occurrences"] = _occurrences(self.train.kept, self.test.kept) | {
            "note": KEPT_NOTE
        }
        manifest["splits"] = records
        if self.train.record is not None or self.test.record is not None:
            manifest["preparation"] = {"train": self.train.record, "test": self.test.record}


def _read_tables(
    train: Any, test: Any, inputs: InputOptions, inject_on: str
) -> tuple[LoadedTable, LoadedTable]:
    """Both input tables, with the part that carries the cue as ``text``."""
    # A file's texts are read again batch by batch while rendering, not held whole in memory
    # (a cue on the second text swaps the columns of tables held in memory instead).
    stream_text = inject_on == TEXT
    tables = agree_labels(
        {
            "train": inputs.read(train, role="train", stream_text=stream_text),
            "test": inputs.read(test, role="test", stream_text=stream_text),
        }
    )
    train_table, test_table = tables["train"], tables["test"]
    if inject_on == TEXT_PAIR:
        return swapped_parts(train_table), swapped_parts(test_table)
    return train_table, test_table


def _injector(
    shortcut: str | Shortcut,
    shortcut_options: Mapping[str, Any] | None,
    distractors: Mapping[str, Distractor] | None,
    train_table: LoadedTable,
    test_table: LoadedTable,
) -> Shortcut:
    """The configured injector: ``shortcut`` itself, or the named one with its options."""
    if isinstance(shortcut, Shortcut):  # a configured injector, reused across builds
        if shortcut_options:
            raise ConfigError(
                "Pass shortcut_options only with a shortcut name; a Shortcut object is configured."
            )
        return shortcut
    options = dict(shortcut_options or {})
    if shortcut in SHORTCUTS.having("family", "concept"):
        options.setdefault(
            "distractors",
            distractors
            if distractors is not None
            else distractors_from_columns(train_table, test_table),
        )
    return make_shortcut(shortcut, options)


def _plan(
    injector: Shortcut,
    design: SplitDesign,
    tables: tuple[LoadedTable, LoadedTable],
    val_size: float,
    seed: int,
    inject_on: str,
    on_empty: str,
) -> PlannedBuild:
    """Carve the validation rows and lay out the five splits, each with its own child seed."""
    carve_seed, *split_seeds = np.random.SeedSequence(int(seed)).spawn(5)
    train = input_table(injector, tables[0], design.labels, TRAIN_ROLE, on_empty)
    test = input_table(injector, tables[1], design.labels, TEST_ROLE, on_empty)
    val_mask = stratified_holdout(train.ranks, val_size, np.random.default_rng(carve_seed))
    train_jobs = [design.job("train", train, positions(~val_mask), TRAIN_ROLE, split_seeds[0])]
    if val_mask.any():
        validation = positions(val_mask)
        train_jobs.append(design.job("validation", train, validation, TRAIN_ROLE, split_seeds[1]))
    everything = positions(np.ones(len(test), dtype=bool))
    test_jobs = [
        design.job("test", test, everything, TEST_ROLE, split_seeds[2]),
        design.job("anti_test", test, everything, TEST_ROLE, split_seeds[3], anti=True),
        SplitJob("original_test", everything),
    ]
    return PlannedBuild(injector, design, train, test, train_jobs, test_jobs, inject_on)


def _manifest(
    planned: PlannedBuild,
    inputs: InputOptions,
    *,
    test_strength: float | str,
    seed: int,
    val_size: float,
    labels: Sequence[Any] | None,
) -> dict[str, Any]:
    """The manifest before rendering: the arguments as resolved, the labels and the inputs."""
    design = planned.design
    return {
        "tool": tool_record(),
        "kind": FAMILY.manifest_kind,
        "arguments": {
            "shortcut": planned.injector.name,
            "shortcut_options": planned.injector.get_params(),
            "strength": design.strength,
            "strength_mode": design.strength_mode,
            "test_strength": test_strength,
            "sampling": design.sampling,
            "schedule": design.schedule or None,
            "seed": int(seed),
            "val_size": val_size,
            "labels": list(labels) if labels else None,
            "text_col": inputs.text_col,
            "label_col": inputs.label_col,
            "text_pair_col": inputs.text_pair_col,
            "inject_on": planned.inject_on,
            "encoding": inputs.encoding,
            "on_empty": inputs.on_empty,
        },
        "seed": int(seed),
        "labels": design.labels.to_json(),
        "environment": environment(),
        "inputs": {role: _input_record(table) for role, table in planned.tables().items()},
        "removed_occurrences": {},
        "kept_occurrences": {},
        "splits": {},
    }


def _input_record(table: InputTable) -> dict[str, Any]:
    """Where an input table came from, and the rows its cue removal left empty (where any)."""
    record = table.table.source.to_json()
    if table.dropped_empty_after_cleaning:
        record["dropped_empty_after_cleaning"] = table.dropped_empty_after_cleaning
    return record


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
            f"strength). Got {quoted(value)} instead."
        )
    return check_strength("test_strength", value)


def _occurrences(train: np.ndarray, test: np.ndarray) -> dict[str, Any]:
    return {
        "train": int(train.sum()),
        "test": int(test.sum()),
        "total": int(train.sum() + test.sum()),
    }


def _label_space(train: LoadedTable, test: LoadedTable, given: Sequence[Any] | None) -> LabelSpace:
    """The training table's labels (in the ``given`` order), which the test table must keep to."""
    train_name = f"'{train.source.path}'" if train.source.path else "the training table"
    labels = LabelSpace.infer(train.index.column(LABEL), given=given, source=train_name)
    _check_test_labels(train, test)
    return labels


def _check_test_labels(train: LoadedTable, test: LoadedTable) -> None:
    import pyarrow.compute as pc

    seen = train.index.column(LABEL).unique()
    test_labels = test.index.column(LABEL)
    unseen = pc.unique(test_labels.filter(pc.invert(pc.is_in(test_labels, value_set=seen))))
    if len(unseen):
        raise DataError(
            f"The test table has label(s) {listed(unseen.to_pylist())} that never occur in the "
            f"training table, so no model can learn them. Remove those rows or check {ended(knob('label_col'))}"
        )
