"""MPS benchmarks (paper 002, section 2.2): Imbalanced, Balanced and a label-balanced test set.

Nothing is injected: the rows of one pool are *redistributed* around an attribute the texts
already have (a negation, a question, a frequent word, a topic). In the Imbalanced set one label,
or a set of labels of similar size with 10 or more classes, takes at least ``dominance`` of every
attribute group (A.8), with different groups tied to different labels; the Balanced set has the
same per-group sizes with labels as uniform as each group allows; the test set is label-balanced
(A.5.1) and shares no text with either training set.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow.compute as pc

from shortcutlab.attributes import Attribute, make_attribute
from shortcutlab.data.benchmark import Benchmark, check_build_start, save_splits
from shortcutlab.data.labels import LabelSpace
from shortcutlab.data.loading import LABEL, ROW_ID, TEXT, TEXT_PAIR, LoadedTable, load_table
from shortcutlab.errors import ConfigError, DataError
from shortcutlab.families.mps.manifest import excluded_rows, given_mapping, mps_manifest
from shortcutlab.families.mps.plan import (
    LABEL_MIXES,
    dominance_share,
    held_out_per_label,
    kept_values,
    redistribute,
)
from shortcutlab.families.mps.rows import (
    GROUP,
    GroupedTable,
    annotate,
    annotated_texts,
    draw_rows,
    group_codes,
    label_balanced_plan,
    split_table,
    subset_rng,
    text_keys,
)
from shortcutlab.registry import check_choice

TRAINING_SPLITS = ("imbalanced", "balanced")


def build_mps_benchmark(
    train: str | Any,
    test: str | Any | None = None,
    *,
    attribute: str | Attribute = "negation",
    attribute_options: Mapping[str, Any] | None = None,
    values: Sequence[str] | None = None,
    top_values: int | None = None,
    dominance: float | None = None,
    dominant: Mapping[str, Any] | None = None,
    dominant_labels: int | None = None,
    size: int | str | None = None,
    label_mix: str = "paper",
    test_size: float | None = None,
    validation_size: float = 0,
    seed: int = 0,
    labels: Sequence[Any] | None = None,
    text_col: str = TEXT,
    label_col: str = LABEL,
    text_pair_col: str | None = None,
    annotate_on: str = TEXT,
    encoding: str = "utf-8",
    on_empty: str = "drop",
    out: str | Path | None = None,
    fmt: str = "csv",
    overwrite: bool = False,
) -> Benchmark:
    """Build an MPS benchmark: ``imbalanced``, ``balanced``, ``test`` (+ ``validation``).

    Args:
        train: the pool (a path, DataFrame, ``datasets.Dataset`` or :class:`LoadedTable`).
        test: a separate test table; without it the test set is drawn from the pool.
        attribute: a name from ``ATTRIBUTES`` (negation, question, ...) or a configured
            :class:`Attribute`; fitted on the pool's texts, then used on the test table too.
        attribute_options: keyword options of the named attribute.
        values: the attribute values to keep (default: the ``top_values`` most frequent).
        top_values: how many of the most frequent values to keep (default: the attribute's own,
            six for the concept attributes, all for the others; ``None`` there means all).
        dominance: the share of each Imbalanced group taken by its dominant label (set), in
            (1/K, 1]; default 0.75 for 2 labels, 0.5 for 3 to 9 labels (A.8), 0.75 combined over
            a set of labels for 10 or more (A.8).
        dominant: ``{value: label or [labels]}``, the dominant label(s) of every group; default:
            the assignment that maximises the dominant share already in the data.
        dominant_labels: labels per dominant set (default 1 below 10 labels, else ceil(K / G)).
        size: Imbalanced (and Balanced) rows; default: the largest the dominance allows, which
            can leave a group of Balanced as skewed as Imbalanced (the paper's Table 11 has such
            groups; a warning names them). ``"even"``: every group only as large as Balanced can
            fill with exactly uniform labels.
        label_mix: ``"paper"`` (every group as large as allowed, as the paper builds it: groups
            tied to different labels differ in size, so Imbalanced's overall label mix is skewed
            and δ also measures that label prior; a warning says how much) or ``"matched"``
            (group sizes chosen so Imbalanced holds every label equally often).
        test_size: test rows (an int) or a fraction of the eligible pool rows; default 0.2 of
            the pool (at most half the rows of the rarest label), or with a test table as many
            as its rarest label allows.
        validation_size: validation rows drawn from the pool like the test set (0: none).
        annotate_on: ``"text"`` or ``"text_pair"``: which text the attribute reads (the
            hypothesis of an NLI pair, say); both texts stay in the splits.
        seed: seeds every draw; the same inputs and seed give byte-identical files.
        out: write the splits and ``manifest.json`` into this folder (atomically, in ``fmt``).

    Examples:
        >>> import pandas as pd
        >>> texts = [f"not good {i}" for i in range(60)] + [f"good {i}" for i in range(60)]
        >>> rows = pd.DataFrame({"text": texts, "label": [0, 0, 1] * 20 + [1, 1, 0] * 20})
        >>> bench = build_mps_benchmark(rows, attribute="negation", test_size=12)
        >>> bench.manifest["dominant"]
        {'with_negation': [0], 'without_negation': [1]}
        >>> bench["imbalanced"].groupby("negation")["label"].value_counts().tolist()
        [37, 12, 37, 12]
        >>> bench["balanced"].groupby("negation")["label"].value_counts().tolist()
        [32, 17, 32, 17]
    """
    check_choice("annotate_on", annotate_on, (TEXT, TEXT_PAIR))
    check_choice("label_mix", label_mix, LABEL_MIXES)
    check_build_start(fmt, seed, out, overwrite)
    loader = dict(
        text_col=text_col,
        label_col=label_col,
        text_pair_col=text_pair_col,
        encoding=encoding,
        on_empty=on_empty,
    )
    pool_table = _load(train, "train", loader)
    test_table = _load(test, "test", loader) if test is not None else None
    label_space = _label_space(pool_table, labels)
    share = dominance_share(dominance, len(label_space))
    if test_table is not None:
        _check_test_labels(test_table, label_space)
    inputs = {"train": pool_table} | ({"test": test_table} if test_table is not None else {})
    # Read once: the pool's texts are fitted on and then annotated (the same list both times).
    texts = {role: annotated_texts(table, annotate_on) for role, table in inputs.items()}
    fitted = _attribute(attribute, attribute_options).fitted(texts["train"])
    column = _output_column(fitted)
    annotations = {role: annotate(fitted, table, texts[role]) for role, table in inputs.items()}
    counts = {role: annotation.counts() for role, annotation in annotations.items()}
    kept = kept_values(
        counts["train"],
        values,
        top_values if top_values is not None else getattr(fitted, "top_values", None),
        explicit_top=top_values is not None,
    )
    keys = dict(zip(inputs, text_keys(list(inputs.values())), strict=True))
    grouped = {
        role: _grouped(table, annotations[role].values, kept, keys[role], label_space)
        for role, table in inputs.items()
    }
    pool = grouped["train"]
    held = _held_out(
        pool, grouped.get("test"), len(kept), label_space, test_size, validation_size, seed
    )

    eligible = pool.groups >= 0
    training_pool = eligible & ~np.isin(pool.keys, held.keys)
    plan = redistribute(
        pool.cell_counts(training_pool, len(kept), len(label_space)),
        kept,
        label_space,
        share,
        dominant=dominant,
        dominant_labels=dominant_labels,
        size=size,
        label_mix=label_mix,
        pool_label_counts=np.bincount(pool.ranks[eligible], minlength=len(label_space)),
    )
    plans = {"imbalanced": plan.imbalanced, "balanced": plan.balanced}
    plans |= {name: held.plans[name] for name in ("validation", "test") if name in held.plans}
    rows = {
        name: draw_rows(pool, training_pool, plans[name], subset_rng(seed, name))
        for name in TRAINING_SPLITS
    } | held.rows
    sources = {name: grouped.get("test", pool) if name == "test" else pool for name in plans}
    tables = {name: split_table(sources[name], rows[name], column) for name in plans}
    arguments = {
        "attribute": fitted.name,
        "attribute_options": dict(attribute_options or {}),
        "values": list(values) if values is not None else None,
        "top_values": top_values,
        "dominance": dominance,
        "dominant": given_mapping(dominant),
        "dominant_labels": dominant_labels,
        "size": size,
        "label_mix": label_mix,
        "test_size": test_size,
        "validation_size": validation_size,
        "seed": int(seed),
        "labels": list(labels) if labels else None,
        "text_col": text_col,
        "label_col": label_col,
        "text_pair_col": text_pair_col,
        "annotate_on": annotate_on,
        "encoding": encoding,
        "on_empty": on_empty,
    }
    manifest = mps_manifest(
        arguments=arguments,
        labels=label_space,
        attribute=fitted,
        column=column,
        kept=kept,
        share=share,
        plan=plan,
        plans=plans,
        held_per_label=held.per_label,
        annotations=annotations,
        annotation_counts=counts,
        excluded=excluded_rows(grouped, held.keys, held.from_pool),
        inputs={role: table.source.to_json() for role, table in inputs.items()},
    )
    if out is None:
        splits = {name: table.to_pandas() for name, table in tables.items()}
        return Benchmark(splits=splits, labels=label_space, manifest=manifest)
    save_splits(tables, manifest, out, fmt=fmt, overwrite=overwrite)  # no pandas on the way
    return Benchmark.load(out)


@dataclass
class HeldOut:
    """The label-balanced test and validation sets: per-cell counts, rows and their texts."""

    plans: dict[str, np.ndarray]
    rows: dict[str, np.ndarray]
    per_label: dict[str, int]
    keys: np.ndarray  # the normalised texts of every held-out row
    from_pool: int  # held-out rows drawn from the pool


def _held_out(
    pool: GroupedTable,
    test_file: GroupedTable | None,
    n_groups: int,
    labels: LabelSpace,
    test_size: float | None,
    validation_size: float,
    seed: int,
) -> HeldOut:
    """Draw the test set (from the test table, else the pool) and the optional validation set
    (from the pool): one row per distinct text, label-balanced (A.5.1), no text shared."""
    held = HeldOut({}, {}, {}, np.zeros(0, dtype=np.int64), 0)
    for name, parameter, size in (
        ("test", "test_size", test_size),
        ("validation", "validation_size", validation_size),
    ):
        source = test_file if name == "test" and test_file is not None else pool
        eligible = source.groups >= 0
        candidates = source.first_of_each_text(eligible & ~np.isin(source.keys, held.keys))
        cells = source.cell_counts(candidates, n_groups, len(labels))
        per_label = held_out_per_label(
            parameter,
            size,
            cells,
            int(eligible.sum()),
            labels,
            from_pool=source is pool,
            optional=name == "validation",
        )
        held.per_label[name] = per_label
        if not per_label:
            continue
        held.plans[name] = label_balanced_plan(per_label, cells)
        held.rows[name] = draw_rows(source, candidates, held.plans[name], subset_rng(seed, name))
        held.keys = np.concatenate([held.keys, source.keys[held.rows[name]]])
        held.from_pool += len(held.rows[name]) if source is pool else 0
    return held


def _load(source: Any, role: str, loader: dict[str, Any]) -> LoadedTable:
    return source if isinstance(source, LoadedTable) else load_table(source, role=role, **loader)


def _label_space(pool: LoadedTable, given: Sequence[Any] | None) -> LabelSpace:
    """The label order: ``given``, numeric order, or (MPS has no rank schedule) sorted text."""
    column = pool.index.column(LABEL)
    name = f"'{pool.source.path}'" if pool.source.path else "the training pool"
    if given is None:
        seen = pc.unique(column).to_pylist()
        if not all(isinstance(v, int | float) for v in seen):
            given = sorted(map(str, seen))
    return LabelSpace.infer(column, given=given, source=name)


def _check_test_labels(test: LoadedTable, labels: LabelSpace) -> None:
    present = set(map(str, pc.unique(test.index.column(LABEL)).to_pylist()))
    known = [str(v) for v in labels.values]
    unseen = sorted(present - set(known))
    if unseen:
        raise DataError(
            f"The test table has label(s) {', '.join(unseen)} that never occur in the training "
            f"pool, so no model can learn them. Remove those rows or check --label-col."
        )
    missing = [v for v in known if v not in present]
    if missing:
        raise DataError(
            f"The test table has no rows of label(s) {', '.join(missing)}, so its test set cannot "
            f"be label-balanced. Add rows of every label, or leave out --test to draw the test set "
            f"from the pool."
        )


def _attribute(attribute: str | Attribute, options: Mapping[str, Any] | None) -> Attribute:
    if isinstance(attribute, Attribute):
        if options:
            raise ConfigError(
                "Pass attribute_options only with an attribute name; an Attribute object is "
                "already configured."
            )
        return attribute
    if not isinstance(attribute, str):
        raise ConfigError(
            f"The 'attribute' parameter must be an attribute name or an Attribute. "
            f"Got {type(attribute).__name__} instead."
        )
    return make_attribute(attribute, options)


def _grouped(
    table: LoadedTable,
    values: np.ndarray,
    kept: Sequence[str],
    keys: np.ndarray,
    labels: LabelSpace,
) -> GroupedTable:
    if len(values) != len(table):
        raise DataError(
            f"The annotator gave {len(values)} values for {len(table)} rows; it must give one per row."
        )
    ranks = labels.ranks(
        table.index.column(LABEL), where=f"The {table.source.path or 'input'} table"
    )
    # Values are text in every output file; an annotator giving numbers gets them as text.
    text = np.array([None if v is None else str(v) for v in values.tolist()], dtype=object)
    return GroupedTable(table, ranks, text, group_codes(text, kept), keys)


def _output_column(attribute: Attribute) -> str:
    column = attribute.column
    if column in (ROW_ID, TEXT, TEXT_PAIR, LABEL, GROUP) or not column:
        raise ConfigError(
            f"The attribute's output column {column!r} would clash with a column of every split "
            f"({ROW_ID}, {TEXT}, {TEXT_PAIR}, {LABEL}, {GROUP}). Give the attribute another name."
        )
    return column


__all__ = ["build_mps_benchmark"]
