"""Shortcut Suite builds (section 4.1, appendix C): one test set per shortcut, written as
``<set>.<fmt>`` files with a ``manifest.json``.

Sets: ``standard`` (a label-balanced sample of the user's data), ``negation``, ``position``,
``style`` (derived from ``standard`` row by row, paired by ``source_row_id``),
``lexical-overlap``, ``subsequence``, ``constituent`` (HANS-style, generated or read from the
official file), and the extended tasks ``sentiment-negation`` and ``paraphrase-overlap``.
Each set draws from its own child seed (fixed by its name's place in :data:`SETS`), so asking for
more or fewer sets never changes the rows of the others.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from shortcutlab.data.benchmark import check_build_start, save_splits
from shortcutlab.data.loading import LABEL, ROW_ID, TEXT, TEXT_PAIR, LoadedTable
from shortcutlab.data.options import InputOptions, reading_options
from shortcutlab.data.parts import require_text_pair
from shortcutlab.errors import ConfigError, DataError, knob, listed
from shortcutlab.families.suite import DEFAULT_SIZE, FAMILY
from shortcutlab.families.suite.extended import load_paws, paraphrase_overlap_set
from shortcutlab.families.suite.hans import (
    SUBCASE,
    generate_heuristic_set,
    read_hans_file,
    sample_heuristic_set,
)
from shortcutlab.families.suite.hans_templates import HEURISTICS
from shortcutlab.families.suite.sets import (
    SOURCE_ROW_ID,
    negation_set,
    position_set,
    standard_set,
    style_set,
)
from shortcutlab.params import check_choice, quoted
from shortcutlab.provenance import environment, tool_record
from shortcutlab.shortcuts.rewriters import make_rewriter

DERIVED_SETS = ("negation", "position", "style")
HEURISTIC_SETS = tuple(HEURISTICS)
EXTENDED_SETS = ("sentiment-negation", "paraphrase-overlap")
SETS = ("standard", *DERIVED_SETS, *HEURISTIC_SETS, *EXTENDED_SETS)
PAIR_SETS = (*DERIVED_SETS, "paraphrase-overlap")
NLI_LABELS = {"entailment", "neutral", "contradiction", "non-entailment"}
_NLI_SPELLINGS = re.compile(r"[\s_]+")


@dataclass
class SuiteBuild:
    """The built sets (DataFrames, in :data:`SETS` order) and the manifest written beside them."""

    sets: dict[str, pd.DataFrame]
    manifest: dict[str, Any] = field(default_factory=dict)
    path: Path | None = None


def parse_sets(sets: str | Sequence[str]) -> list[str]:
    """The requested set names, checked, in :data:`SETS` order."""
    names = [s.strip() for s in sets.split(",")] if isinstance(sets, str) else list(sets)
    names = [n for n in names if n]
    if not names:
        raise ConfigError(f"The 'sets' parameter names no set; choose from {', '.join(SETS)}.")
    for name in names:
        check_choice("sets", name, SETS)
    return [s for s in SETS if s in names]


def is_nli_label_set(labels: Sequence[Any]) -> bool:
    """Whether every label is an NLI label (entailment, neutral, contradiction, non-entailment;
    case, spaces and underscores aside) and entailment is one of them."""
    names = {_NLI_SPELLINGS.sub("-", str(label).strip().lower()) for label in labels}
    return "entailment" in names and names <= NLI_LABELS


def build_suite_benchmark(
    train: str | Path | Any,
    *,
    sets: str | Sequence[str],
    size: int = DEFAULT_SIZE,
    seed: int = 0,
    rewriter: str = "rules",
    rewriter_options: Mapping[str, Any] | None = None,
    hans: str | Path | None = None,
    paws: str | Path | None = None,
    min_overlap: float = 0.8,
    text_col: str | None = None,
    label_col: str | None = None,
    text_pair_col: str | None = None,
    encoding: str | None = None,
    on_empty: str | None = None,
    inputs: InputOptions | None = None,
) -> SuiteBuild:
    """Build the requested Shortcut Suite sets from ``train`` (NLI data; sentiment or paraphrase
    data for the extended sets). ``text_col``, ``label_col``, ``text_pair_col``, ``encoding``
    and ``on_empty`` say how it is read; or ``inputs`` gives them and, with ``inputs.out``, the
    folder the sets are written to (atomically, in ``inputs.fmt``); giving both is refused.

    Examples:
        >>> suite = build_suite_benchmark(None, sets="lexical-overlap", size=20)
        >>> suite.sets["lexical-overlap"]["label"].value_counts().tolist()
        [10, 10]
    """
    inputs = reading_options(
        "build_suite_benchmark",
        inputs,
        InputOptions,
        text_col=text_col,
        label_col=label_col,
        text_pair_col=text_pair_col,
        encoding=encoding,
        on_empty=on_empty,
    )
    requested = parse_sets(sets)
    check_build_start(inputs.fmt, seed, inputs.out, inputs.overwrite, (train,))
    _check_arguments(requested, size, min_overlap, paws)
    table = None if train is None else inputs.read(train, role="train")
    labels = [] if table is None else sorted(set(table.index.column(LABEL).to_pylist()), key=str)
    needs_data = [s for s in requested if s not in HEURISTIC_SETS]
    if table is None and needs_data:
        raise ConfigError(f"The {needs_data[0]} set is made from data: pass {knob('train')}.")
    _check_inputs(requested, table, labels)
    sources = SetSources(
        table=table,
        labels=labels,
        size=size,
        seed=seed,
        rewriter=rewriter,
        rewriter_options=rewriter_options,
        hans=hans,
        paws=paws,
        min_overlap=min_overlap,
        inputs=inputs,
    )
    built, records = sources.make(requested)
    arguments = dict(
        size=size,
        rewriter=rewriter,
        rewriter_options=dict(rewriter_options or {}),
        hans=None if hans is None else str(hans),
        paws=None if paws is None else str(paws),
        min_overlap=min_overlap,
        **inputs.reading(),
    )
    manifest = _manifest(built, records, requested, table, seed, arguments=arguments)
    if inputs.out is None:
        return SuiteBuild(built, manifest)
    written = save_splits(built, manifest, inputs.out, fmt=inputs.fmt, overwrite=inputs.overwrite)
    return SuiteBuild(built, written, inputs.out)


def _check_arguments(
    requested: list[str], size: int, min_overlap: float, paws: str | Path | None
) -> None:
    """The arguments a build refuses before reading anything."""
    if isinstance(size, bool) or not isinstance(size, int | np.integer) or size < 1:
        raise ConfigError(
            f"The 'size' parameter must be a positive integer. Got {quoted(size)} instead."
        )
    if not 0 <= min_overlap <= 1:
        raise ConfigError(
            f"The 'min_overlap' parameter must be in [0, 1]. Got {quoted(min_overlap)} instead."
        )
    if paws is not None and "paraphrase-overlap" not in requested:
        raise ConfigError(
            f"{knob('paws')} applies to the paraphrase-overlap set; add it to {knob('sets')} or "
            f"drop {knob('paws')}."
        )


@dataclass(frozen=True)
class SetSources:
    """What the sets are made from and with: the user's table and its labels, the rows per set,
    the seed every set's child seed comes from, the style set's rewriter, the official HANS file
    and a PAWS file (both read with the input options)."""

    table: LoadedTable | None
    labels: list[Any]
    size: int
    seed: int
    rewriter: str
    rewriter_options: Mapping[str, Any] | None
    hans: str | Path | None
    paws: str | Path | None
    min_overlap: float
    inputs: InputOptions

    def make(
        self, requested: list[str]
    ) -> tuple[dict[str, pd.DataFrame], dict[str, dict[str, Any]]]:
        """The requested sets (and the standard set the derived ones come from), in :data:`SETS`
        order, and what each set records in the manifest besides its counts."""
        seeds = np.random.SeedSequence(int(self.seed)).spawn(len(SETS))
        rngs = {name: np.random.default_rng(child) for name, child in zip(SETS, seeds, strict=True)}
        built: dict[str, pd.DataFrame] = {}
        records: dict[str, dict[str, Any]] = {}
        frame = self.table.frame if self.table is not None else None
        standard = None
        official = None
        if self.hans is not None:
            official = read_hans_file(self.hans, encoding=self.inputs.encoding)
        # paraphrase-overlap without PAWS draws from the standard set's table, so it needs the
        # standard rows (the same ones whichever sets are asked for) to leave them out.
        needs_standard = ("standard", *DERIVED_SETS, "sentiment-negation")
        if self.paws is None:
            needs_standard += ("paraphrase-overlap",)
        if frame is not None and any(s in requested for s in needs_standard):
            standard = standard_set(frame, self.labels, self.size, rngs["standard"])
            built["standard"] = standard
        for name in requested:
            if name == "negation":
                built[name] = negation_set(standard, rngs[name])
            elif name == "sentiment-negation":
                built[name] = negation_set(standard, rngs[name], part=TEXT)
            elif name == "position":
                built[name] = position_set(standard, rngs[name])
            elif name == "style":
                rewriting = make_rewriter(self.rewriter, self.rewriter_options)
                rewriting.check_supports("bible")
                rewriting.attach(self.table, role="test")
                built[name], records[name] = style_set(standard, rewriting)
            elif name in HEURISTIC_SETS:
                built[name], records[name] = self._heuristic_set(name, official, rngs[name])
            elif name == "paraphrase-overlap":
                built[name], records[name] = self._paraphrase_set(frame, standard, rngs[name])
        return {name: built[name] for name in SETS if name in built}, records

    def _heuristic_set(
        self, name: str, official: pd.DataFrame | None, rng: np.random.Generator
    ) -> tuple[pd.DataFrame, dict[str, Any]]:
        """A HANS-style set: generated from the templates, or sampled from the official file."""
        if official is None:
            built, record = generate_heuristic_set(name, self.size, rng)
            return built, record | {"source": "generated"}
        built = sample_heuristic_set(official, name, self.size, rng, source=f"'{self.hans}'")
        return built, {"source": str(self.hans)}

    def _paraphrase_set(
        self, frame: pd.DataFrame | None, standard: pd.DataFrame | None, rng: np.random.Generator
    ) -> tuple[pd.DataFrame, dict[str, Any]]:
        """paraphrase-overlap: the high-overlap pairs of PAWS, or of the user's table outside the
        standard set."""
        from_paws = self.paws is not None
        pairs = frame
        if from_paws:
            inputs = self.inputs
            columns = (inputs.text_col, inputs.text_pair_col or "", inputs.label_col)
            pairs = load_paws(self.paws, columns=columns, encoding=inputs.encoding)
        return paraphrase_overlap_set(
            pairs,
            self.labels,
            self.size,
            rng,
            from_paws=from_paws,
            min_overlap=self.min_overlap,
            standard_row_ids=() if from_paws else standard[ROW_ID],
        )


def _check_inputs(requested: list[str], table: LoadedTable | None, labels: list[Any]) -> None:
    """The bad inputs the issue lists: a pair set without text_pair, a heuristic set with labels
    that are not NLI labels; and single-text sets given pairs."""
    if table is None:
        return
    for name in requested:
        if name in PAIR_SETS:
            require_text_pair(table, f"The {name} set")
    paired = TEXT_PAIR in table.column_names()
    if "sentiment-negation" in requested and paired:
        raise DataError(
            "The sentiment-negation set appends the tautology to single-text data, but the data "
            "has a text_pair column; for NLI data ask for the negation set instead."
        )
    heuristic = [s for s in requested if s in HEURISTIC_SETS]
    if heuristic and not is_nli_label_set(labels):
        raise DataError(
            f"The {heuristic[0]} set is NLI (labels entailment / non-entailment) but the data's "
            f"labels are {listed(labels)}. Pass NLI data with entailment, neutral and "
            f"contradiction labels (or entailment / non-entailment), or drop the heuristic sets."
        )
    if len(labels) < 2:
        raise DataError(f"The data has {len(labels)} label(s); a suite needs at least two.")


def _manifest(
    built: dict[str, pd.DataFrame],
    records: dict[str, dict[str, Any]],
    requested: list[str],
    table: LoadedTable | None,
    seed: int,
    *,
    arguments: dict[str, Any],
) -> dict[str, Any]:
    sets: dict[str, Any] = {}
    for name, frame in built.items():
        entry: dict[str, Any] = {
            "rows": len(frame),
            "label_counts": {
                str(k): int(v) for k, v in frame[LABEL].value_counts().sort_index().items()
            },
        }
        if SUBCASE in frame.columns:
            entry["subcase_counts"] = {
                str(k): int(v) for k, v in frame[SUBCASE].value_counts().sort_index().items()
            }
        for column in ("position", "tautology"):
            if column in frame.columns:
                entry[f"{column}_counts"] = {
                    str(k): int(v) for k, v in frame[column].value_counts().sort_index().items()
                }
        entry["paired_with_standard"] = SOURCE_ROW_ID in frame.columns and name != "standard"
        sets[name] = entry | records.get(name, {})
    return {
        "tool": tool_record(),
        "kind": FAMILY.manifest_kind,
        "arguments": {"sets": requested, "seed": int(seed)} | arguments,
        "seed": int(seed),
        # Set i draws from SeedSequence(seed).spawn(len(SETS))[i], i its place in this list.
        "seed_order": list(SETS),
        "sets_requested": requested,
        "sets_added": [s for s in built if s not in requested],
        "environment": environment(),
        "inputs": {"train": table.source.to_json() if table is not None else None},
        "splits": sets,
    }
