"""Shortcut Maze benchmarks: train / validation / test / anti-test / original-test.

Training splits carry the shortcut at strength lambda, test and anti-test at the test strength (1 by
default), the anti-test with the label schedule reversed; original-test has no shortcut. All
splits first lose every pre-existing occurrence of the cue (section 2.2.1; ordinary uses of a
multi-word phrase stay and are counted); then the shortcut sees each input table once
(``Shortcut.prepare``) and may drop rows from all of its splits, e.g. rows whose style rewrite
failed. The cue rates in the manifest are measured on the output texts (``Shortcut.observe``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd

from shortcutlab.data.labels import LabelSpace
from shortcutlab.data.loading import (
    LABEL,
    ROW_ID,
    SHORTCUT,
    TEXT,
    TEXT_PAIR,
    LoadedTable,
    load_table,
)
from shortcutlab.errors import ConfigError, DataError
from shortcutlab.registry import check_choice
from shortcutlab.shortcuts import make_shortcut
from shortcutlab.shortcuts.base import (
    TEST_ROLE,
    TRAIN_ROLE,
    UNDECIDABLE,
    Injection,
    Shortcut,
    SplitPlan,
    check_observed,
    rates_by_label,
)
from shortcutlab.shortcuts.concept import Distractor
from shortcutlab.shortcuts.schedule import SAMPLING, STRENGTH_MODES, base_schedule, check_strength
from shortcutlab.splits.benchmark import Benchmark, environment, tool_record
from shortcutlab.splits.distractors import distractors_from_columns
from shortcutlab.splits.stratify import stratified_holdout

CONCEPT_SHORTCUTS = ("concept-occurrence", "concept-correlation")
KEPT_NOTE = (
    "Occurrences of the cue vocabulary left in place because they are not the cue as inserted: "
    "a multi-word phrase that is not a discourse marker (e.g. 'I believe in truth and justice')."
)


def build_maze_benchmark(
    train: str | Any,
    test: str | Any,
    *,
    shortcut: str = "single-term",
    shortcut_options: Mapping[str, Any] | None = None,
    strength: float = 0.8,
    strength_mode: str = "mix",
    test_strength: float = 1.0,
    sampling: str = "exact",
    schedule: Sequence[float] | None = None,
    seed: int = 0,
    val_size: float = 0,
    labels: Sequence[Any] | None = None,
    distractors: Mapping[str, Distractor] | None = None,
    text_col: str = TEXT,
    label_col: str = LABEL,
    text_pair_col: str | None = None,
    encoding: str = "utf-8",
    on_empty: str = "drop",
) -> Benchmark:
    """Build a Shortcut Maze benchmark from a training and a test table.

    Args:
        train, test: paths, DataFrames, ``datasets.Dataset`` objects or :class:`LoadedTable`.
        shortcut: a name from ``SHORTCUTS`` (single-term, synonym, category, register, author,
            bible, concept-occurrence, concept-correlation).
        shortcut_options: keyword options of the shortcut (e.g. ``{"term": "frankly"}``,
            ``{"rewriter": "file", "rewrites": {...}}``).
        strength: lambda for the training and validation splits, in [0, 1].
        strength_mode: ``"mix"`` (the released data) or ``"scale"`` (the paper's text).
        test_strength: lambda for test and anti-test.
        sampling: ``"exact"`` cue counts per label (default) or independent ``"bernoulli"`` draws.
        schedule: per-label base probabilities instead of i/(K-1).
        seed: seeds every random choice; same inputs and seed give identical splits.
        val_size: validation rows carved from train (an int), or a fraction in (0, 1).
        labels: the label order; numeric labels sort numerically without it.
        distractors: aspect pools for the concept shortcuts; default: the tables'
            ``NAME_text``/``NAME_label`` columns.

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
    test_strength = check_strength("test_strength", test_strength)
    check_choice("strength_mode", strength_mode, STRENGTH_MODES)
    check_choice("sampling", sampling, SAMPLING)
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise ConfigError(
            f"The 'seed' parameter must be a non-negative integer. Got {seed!r} instead."
        )
    loader = dict(
        text_col=text_col,
        label_col=label_col,
        text_pair_col=text_pair_col,
        encoding=encoding,
        on_empty=on_empty,
    )
    train_table = (
        train if isinstance(train, LoadedTable) else load_table(train, role="train", **loader)
    )
    test_table = test if isinstance(test, LoadedTable) else load_table(test, role="test", **loader)
    train_name = f"'{train_table.source.path}'" if train_table.source.path else "the training table"
    label_space = LabelSpace.infer(
        train_table.frame[LABEL].tolist(), given=labels, source=train_name
    )
    _check_test_labels(train_table, test_table, label_space)
    resolved_schedule = (
        tuple(base_schedule(len(label_space), schedule).tolist()) if schedule is not None else None
    )

    options = dict(shortcut_options or {})
    if shortcut in CONCEPT_SHORTCUTS:
        options.setdefault(
            "distractors",
            distractors
            if distractors is not None
            else distractors_from_columns(train_table, test_table),
        )
    injector = make_shortcut(shortcut, options)
    injector.validate(label_space)

    carve_seed, *split_seeds = np.random.SeedSequence(int(seed)).spawn(5)
    train_frame, train_counts, train_record = _cleaned_and_prepared(
        injector, train_table, TRAIN_ROLE
    )
    test_frame, test_counts, test_record = _cleaned_and_prepared(injector, test_table, TEST_ROLE)
    train_ranks = label_space.ranks(train_frame[LABEL])
    val_mask = stratified_holdout(train_ranks, val_size, np.random.default_rng(carve_seed))

    plans = {
        "train": (train_frame[~val_mask], train_counts[~val_mask], strength, False, TRAIN_ROLE),
        "validation": (train_frame[val_mask], train_counts[val_mask], strength, False, TRAIN_ROLE),
        "test": (test_frame, test_counts, test_strength, False, TEST_ROLE),
        "anti_test": (test_frame, test_counts, test_strength, True, TEST_ROLE),
    }
    splits: dict[str, pd.DataFrame] = {}
    records: dict[str, dict[str, Any]] = {}
    for (name, (frame, counts, lam, anti, role)), split_seed in zip(
        plans.items(), split_seeds, strict=True
    ):
        if name == "validation" and not val_mask.any():
            continue
        plan = SplitPlan(
            ranks=label_space.ranks(frame[LABEL]),
            labels=label_space,
            strength=lam,
            strength_mode=strength_mode,
            schedule=resolved_schedule,
            anti=anti,
            role=role,
            sampling=sampling,
            row_ids=frame[ROW_ID].to_numpy(),
        )
        injection = injector.inject(frame[TEXT].tolist(), plan, split_seed)
        observed = injector.observe(injection.texts, plan)
        check_observed(
            observed,
            injector.recorded_cue(injection.shortcut, plan),
            frame[ROW_ID].tolist(),
            shortcut=shortcut,
            split=name,
        )
        splits[name] = _output_frame(frame, injection.texts, injection.shortcut)
        records[name] = _split_record(splits[name], label_space, counts, plan, injection, observed)
    splits["original_test"] = _output_frame(
        test_frame, test_frame[TEXT].tolist(), [""] * len(test_frame)
    )
    records["original_test"] = _split_record(
        splits["original_test"], label_space, test_counts, None, None, None
    )

    manifest = {
        "tool": tool_record(),
        "kind": "shortcut-maze",
        "arguments": {
            "shortcut": shortcut,
            "shortcut_options": injector.get_params(),
            "strength": strength,
            "strength_mode": strength_mode,
            "test_strength": test_strength,
            "sampling": sampling,
            "schedule": list(resolved_schedule) if resolved_schedule else None,
            "seed": int(seed),
            "val_size": val_size,
            "labels": list(labels) if labels else None,
            "text_col": text_col,
            "label_col": label_col,
            "text_pair_col": text_pair_col,
            "encoding": encoding,
            "on_empty": on_empty,
        },
        "seed": int(seed),
        "labels": label_space.to_json(),
        "environment": environment(),
        "inputs": {"train": train_table.source.to_json(), "test": test_table.source.to_json()},
        "removed_occurrences": _occurrences(train_counts[:, 0], test_counts[:, 0]),
        "kept_occurrences": _occurrences(train_counts[:, 1], test_counts[:, 1])
        | {"note": KEPT_NOTE},
        "splits": records,
    }
    if train_record is not None or test_record is not None:
        manifest["preparation"] = {"train": train_record, "test": test_record}
    return Benchmark(splits=splits, labels=label_space, manifest=manifest)


def _cleaned_and_prepared(
    injector: Shortcut, table: LoadedTable, role: str
) -> tuple[pd.DataFrame, np.ndarray, dict[str, Any] | None]:
    """Remove the cue vocabulary, then let the injector see the table (and drop rows) once.

    Returns the frame, per row the occurrences removed and kept (two columns), and the record.
    """
    cleaning = injector.clean(table.frame[TEXT].tolist())
    frame = table.frame.assign(**{TEXT: cleaning.texts})
    counts = np.column_stack([cleaning.removed, cleaning.kept]).astype(np.int64)
    preparation = injector.prepare(replace(table, frame=frame), role=role)
    if preparation.keep is not None:
        keep = np.asarray(preparation.keep, dtype=bool)
        frame, counts = frame[keep].reset_index(drop=True), counts[keep]
    return frame, counts, preparation.record


def _occurrences(train: np.ndarray, test: np.ndarray) -> dict[str, Any]:
    return {
        "train": int(train.sum()),
        "test": int(test.sum()),
        "total": int(train.sum() + test.sum()),
    }


def _check_test_labels(train: LoadedTable, test: LoadedTable, labels: LabelSpace) -> None:
    seen = set(train.frame[LABEL].tolist())
    unseen = [v for v in dict.fromkeys(test.frame[LABEL].tolist()) if v not in seen]
    if unseen:
        raise DataError(
            f"The test table has label(s) {', '.join(map(str, unseen))} that never occur in the "
            f"training table, so no model can learn them. Remove those rows or check --label-col."
        )
    labels.ranks(test.frame[LABEL], where="The test table")


def _output_frame(frame: pd.DataFrame, texts: list[str], shortcut: list[str]) -> pd.DataFrame:
    columns: dict[str, Any] = {
        ROW_ID: frame[ROW_ID].to_numpy(),
        TEXT: np.asarray(texts, dtype=object),
    }
    if TEXT_PAIR in frame:
        columns[TEXT_PAIR] = frame[TEXT_PAIR].to_numpy(dtype=object)
    columns[LABEL] = frame[LABEL].to_numpy()
    columns[SHORTCUT] = np.asarray(shortcut, dtype=object)
    return pd.DataFrame(columns)


def _by_label(values: np.ndarray | None, labels: LabelSpace) -> dict[str, float | None] | None:
    if values is None:
        return None
    return {
        str(label): (None if np.isnan(v) else round(float(v), 6))
        for label, v in zip(labels.values, values, strict=True)
    }


def _split_record(
    frame: pd.DataFrame,
    labels: LabelSpace,
    occurrences: np.ndarray,
    plan: SplitPlan | None,
    injection: Injection | None,
    observed: np.ndarray | None,
) -> dict[str, Any]:
    """The split's manifest entry; ``observed`` is the cue count per output text (Shortcut.observe)."""
    ranks = labels.ranks(frame[LABEL])
    counts = np.bincount(ranks, minlength=len(labels))
    decided = None if observed is None else observed != UNDECIDABLE
    return {
        "rows": len(frame),
        "strength": plan.strength if plan else None,
        "schedule": ("reversed" if plan.anti else "label-rank") if plan else None,
        "label_counts": {
            str(label): int(c) for label, c in zip(labels.values, counts, strict=True)
        },
        "removed_occurrences": int(occurrences[:, 0].sum()),
        "kept_occurrences": int(occurrences[:, 1].sum()),
        "target_rate": _by_label(injection.target_rate if injection else None, labels),
        "observed_rate": _by_label(
            None if observed is None else rates_by_label(observed > 0, ranks, len(labels), decided),
            labels,
        ),
        "undecidable_rows": None if decided is None else int((~decided).sum()),
    } | ({"details": injection.details} if injection and injection.details is not None else {})
