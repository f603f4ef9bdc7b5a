"""MPS benchmarks (paper 002, section 2.2): Imbalanced, Balanced and a label-balanced test set.

Nothing is injected: the rows of one pool are *redistributed* around an attribute the texts
already have (a negation, a question, a frequent word, a topic). In the Imbalanced set one label,
or a set of labels of similar size with 10 or more classes, takes at least ``dominance`` of every
attribute group (A.8), with different groups tied to different labels; the Balanced set has the
same per-group sizes with labels as uniform as each group allows; the test set is label-balanced
(A.5.1) and shares no text with either training set.

*Sizes.* By default every group is as large as the dominance allows, which can leave a group of
Balanced as skewed as Imbalanced (the paper's Table 11 has such groups; a warning names them);
``size="even"`` makes every group only as large as Balanced can fill with exactly uniform labels.
``label_mix="paper"`` sizes the groups as the paper does: every group as large as allowed, so
groups tied to different labels differ in size, Imbalanced's overall label mix is skewed and δ
also measures that label prior (a warning says how much); ``"matched"`` chooses group sizes so
Imbalanced holds every label equally often.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from shortcutlab.attributes import Annotation, Attribute, make_attribute
from shortcutlab.data.benchmark import Benchmark, check_build_start, save_splits
from shortcutlab.data.label_agreement import agree_labels
from shortcutlab.data.labels import LabelSpace
from shortcutlab.data.loading import LABEL, ROW_ID, TEXT, TEXT_PAIR, LoadedTable
from shortcutlab.data.options import InputOptions, reading_options
from shortcutlab.data.overlap import check_test_overlap
from shortcutlab.errors import ConfigError, DataError, ended, knob, listed
from shortcutlab.families.mps.dominant_labels import LABEL_MIXES
from shortcutlab.families.mps.held_out import HeldOut, held_out_sets
from shortcutlab.families.mps.manifest import excluded_rows, given_mapping, mps_manifest
from shortcutlab.families.mps.measurable import warn_not_measurable
from shortcutlab.families.mps.plan import (
    Redistribution,
    dominance_share,
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
    split_table,
    subset_rng,
    text_keys,
)
from shortcutlab.params import check_choice, quoted

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
    annotate_on: str = TEXT,
    text_col: str | None = None,
    label_col: str | None = None,
    text_pair_col: str | None = None,
    encoding: str | None = None,
    on_empty: str | None = None,
    inputs: InputOptions | None = None,
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
            (1/K, 1]; default 0.75 for 2 labels, 0.5 for 3 to 9 labels, 0.75 combined over a
            set of labels for 10 or more (A.8).
        dominant: ``{value: label or [labels]}``, the dominant label(s) of every group; default:
            the assignment that maximises the dominant share already in the data.
        dominant_labels: labels per dominant set (default 1 below 10 labels, else ceil(K / G)).
        size: Imbalanced (and Balanced) rows; default: the largest the dominance allows, or
            ``"even"`` (see *Sizes* above).
        label_mix: ``"paper"`` or ``"matched"`` group sizes (see *Sizes* above).
        test_size: test rows (an int) or a fraction of the eligible pool rows; default 0.2 of
            the pool (at most half the rows of the rarest label), or with a test table as many
            as its rarest label allows.
        validation_size: validation rows drawn from the pool like the test set (0: none).
        seed: seeds every draw; the same inputs and seed give byte-identical files.
        labels: the label order (default: numeric order, else sorted text).
        annotate_on: ``"text"`` or ``"text_pair"``: which text the attribute reads (the
            hypothesis of an NLI pair, say); both texts stay in the splits.
        text_col: the column holding the text (default ``text``). The five reading settings
            can instead all be given, with where to write, in ``inputs`` (giving both is refused).
        label_col: the column holding the label (default ``label``).
        text_pair_col: the second text column, for paired inputs.
        encoding: the encoding of the files read (default UTF-8).
        on_empty: rows with an empty text or label: ``"drop"`` them (the default) or ``"error"``.
        inputs: the input tables' columns and encoding; with ``inputs.out`` the splits and
            ``manifest.json`` are written into that folder (atomically, in ``inputs.fmt``).

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
    return MpsBuild(
        attribute=attribute,
        attribute_options=attribute_options,
        values=values,
        top_values=top_values,
        dominance=dominance,
        dominant=dominant,
        dominant_labels=dominant_labels,
        size=size,
        label_mix=label_mix,
        test_size=test_size,
        validation_size=validation_size,
        seed=seed,
        labels=labels,
        annotate_on=annotate_on,
        inputs=reading_options(
            "build_mps_benchmark",
            inputs,
            InputOptions,
            text_col=text_col,
            label_col=label_col,
            text_pair_col=text_pair_col,
            encoding=encoding,
            on_empty=on_empty,
        ),
    ).run(train, test)


@dataclass
class AttributeGroups:
    """The attribute fitted on the pool, its annotations of every input table, the values kept
    and every table's rows grouped by them (``"train"``: the pool, ``"test"``: a test table)."""

    attribute: Attribute
    column: str  # the output column holding each row's value
    annotations: dict[str, Annotation]
    counts: dict[str, dict[str, int]]
    kept: list[str]
    grouped: dict[str, GroupedTable]


@dataclass(frozen=True)
class MpsBuild:
    """The parameters of one MPS build (see :func:`build_mps_benchmark`) and its steps: check,
    read, annotate, hold out, redistribute, record, write."""

    attribute: str | Attribute
    attribute_options: Mapping[str, Any] | None
    values: Sequence[str] | None
    top_values: int | None
    dominance: float | None
    dominant: Mapping[str, Any] | None
    dominant_labels: int | None
    size: int | str | None
    label_mix: str
    test_size: float | None
    validation_size: float
    seed: int
    labels: Sequence[Any] | None
    annotate_on: str
    inputs: InputOptions

    def run(self, train: Any, test: Any | None) -> Benchmark:
        """Build from the pool ``train`` (and a test table) into memory or ``inputs.out``."""
        check_choice("annotate_on", self.annotate_on, (TEXT, TEXT_PAIR))
        check_choice("label_mix", self.label_mix, LABEL_MIXES)
        check_build_start(
            self.inputs.fmt, self.seed, self.inputs.out, self.inputs.overwrite, (train, test)
        )
        tables = {"train": self.inputs.read(train, role="train")}
        if test is not None:
            tables["test"] = self.inputs.read(test, role="test")
        tables = agree_labels(tables)
        label_space = _label_space(tables["train"], self.labels)
        share = dominance_share(self.dominance, len(label_space))
        if "test" in tables:
            _check_test_labels(tables["test"], label_space)
            check_test_overlap(tables["train"], tables["test"])
        groups = self._annotate(tables, label_space)
        pool = groups.grouped["train"]
        held = held_out_sets(
            pool,
            groups.grouped.get("test"),
            len(groups.kept),
            label_space,
            self.test_size,
            self.validation_size,
            self.seed,
        )
        plan, plans, splits = self._redistribute(groups, held, label_space, share)
        manifest = mps_manifest(
            arguments=self._arguments(groups.attribute),
            labels=label_space,
            attribute=groups.attribute,
            column=groups.column,
            kept=groups.kept,
            share=share,
            plan=plan,
            plans=plans,
            held_per_label=held.per_label,
            annotations=groups.annotations,
            annotation_counts=groups.counts,
            excluded=excluded_rows(groups.grouped, held.keys, held.from_pool),
            inputs={role: table.source.to_json() for role, table in tables.items()},
        )
        warn_not_measurable(manifest["not_measurable"])
        if self.inputs.out is None:
            frames = {name: table.to_pandas() for name, table in splits.items()}
            return Benchmark(splits=frames, labels=label_space, manifest=manifest)
        out, fmt, overwrite = self.inputs.out, self.inputs.fmt, self.inputs.overwrite
        save_splits(splits, manifest, out, fmt=fmt, overwrite=overwrite)  # no pandas on the way
        return Benchmark.load(out)

    def _annotate(self, tables: dict[str, LoadedTable], labels: LabelSpace) -> AttributeGroups:
        """Fit the attribute on the pool, annotate every table and group its rows by the kept
        values."""
        # Read once: the pool's texts are fitted on and then annotated (the same list both times).
        texts = {role: annotated_texts(table, self.annotate_on) for role, table in tables.items()}
        fitted = _attribute(self.attribute, self.attribute_options).fitted(texts["train"])
        column = _output_column(fitted)
        annotations = {role: annotate(fitted, table, texts[role]) for role, table in tables.items()}
        counts = {role: annotation.counts() for role, annotation in annotations.items()}
        kept = kept_values(
            counts["train"],
            self.values,
            self.top_values if self.top_values is not None else getattr(fitted, "top_values", None),
            explicit_top=self.top_values is not None,
        )
        keys = dict(zip(tables, text_keys(list(tables.values())), strict=True))
        grouped = {
            role: _grouped(table, annotations[role].values, kept, keys[role], labels)
            for role, table in tables.items()
        }
        return AttributeGroups(fitted, column, annotations, counts, kept, grouped)

    def _redistribute(
        self, groups: AttributeGroups, held: HeldOut, labels: LabelSpace, share: Fraction
    ) -> tuple[Redistribution, dict[str, np.ndarray], dict[str, pa.Table]]:
        """Imbalanced and Balanced from the pool rows not held out; returns the redistribution,
        every split's counts per (group, label) cell and every split's rows."""
        pool = groups.grouped["train"]
        eligible = pool.groups >= 0
        training_pool = eligible & ~np.isin(pool.keys, held.keys)
        plan = redistribute(
            pool.cell_counts(training_pool, len(groups.kept), len(labels)),
            groups.kept,
            labels,
            share,
            dominant=self.dominant,
            dominant_labels=self.dominant_labels,
            size=self.size,
            label_mix=self.label_mix,
            pool_label_counts=np.bincount(pool.ranks[eligible], minlength=len(labels)),
        )
        plans = {"imbalanced": plan.imbalanced, "balanced": plan.balanced}
        plans |= {name: held.plans[name] for name in ("validation", "test") if name in held.plans}
        rows = {
            name: draw_rows(pool, training_pool, plans[name], subset_rng(self.seed, name))
            for name in TRAINING_SPLITS
        } | held.rows
        sources = {
            name: groups.grouped.get("test", pool) if name == "test" else pool for name in plans
        }
        splits = {name: split_table(sources[name], rows[name], groups.column) for name in plans}
        return plan, plans, splits

    def _arguments(self, attribute: Attribute) -> dict[str, Any]:
        """The parameters as the manifest records them."""
        return {
            "attribute": attribute.name,
            "attribute_options": dict(self.attribute_options or {}),
            "values": list(self.values) if self.values is not None else None,
            "top_values": self.top_values,
            "dominance": self.dominance,
            "dominant": given_mapping(self.dominant),
            "dominant_labels": self.dominant_labels,
            "size": self.size,
            "label_mix": self.label_mix,
            "test_size": self.test_size,
            "validation_size": self.validation_size,
            "seed": int(self.seed),
            "labels": list(self.labels) if self.labels else None,
            "text_col": self.inputs.text_col,
            "label_col": self.inputs.label_col,
            "text_pair_col": self.inputs.text_pair_col,
            "annotate_on": self.annotate_on,
            "encoding": self.inputs.encoding,
            "on_empty": self.inputs.on_empty,
        }


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
            f"The test table has label(s) {listed(unseen)} that never occur in the training "
            f"pool, so no model can learn them. Remove those rows or check {ended(knob('label_col'))}"
        )
    missing = [v for v in known if v not in present]
    if missing:
        raise DataError(
            f"The test table has no rows of label(s) {listed(missing)}, so its test set cannot "
            f"be label-balanced. Add rows of every label, or leave out {knob('test')} to draw the "
            "test set from the pool."
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
            f"The attribute's output column {quoted(column)} would clash with a column of every split "
            f"({ROW_ID}, {TEXT}, {TEXT_PAIR}, {LABEL}, {GROUP}). Give the attribute another name."
        )
    return column


__all__ = ["build_mps_benchmark"]
