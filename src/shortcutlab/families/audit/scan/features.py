"""Binary indicators of a table, fitted on the training rows: tokens and n-grams, attribute values,
surface properties, lexicons and metadata values.

:func:`fit_features` fixes every data-dependent choice on the training rows (the vocabulary, the
length and readability bins, the frequent words, the metadata values) and keeps only indicators
that at least ``min_support`` training rows have; :meth:`FeaturePlan.transform` then gives any
table (the test rows) the same columns in the same order.

The training rows are read a slice at a time
(:mod:`~shortcutlab.families.audit.scan.indicator_fitters`) and their indicators are kept as counts
(:mod:`~shortcutlab.families.audit.scan.indicator_counts`), never as a (rows × features) matrix:
the scan tests counts, and the few columns read later (the examples of the top candidates) are
read again from the rows.

Tokens keep negation contractions whole ("don't", "isn't"; a tokenised "do n't" reads as "don't")
and single-character words, because the best-known annotation artefacts are exactly these words:
"not", "no", "never", "nothing" in MNLI hypotheses (Gururangan et al. 2018, table 2).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy.sparse as sp

from shortcutlab.attributes import make_attribute
from shortcutlab.errors import DataError
from shortcutlab.families.audit.scan.candidates import FeatureSet
from shortcutlab.families.audit.scan.columns import join_indicator_blocks
from shortcutlab.families.audit.scan.indicator_counts import IndicatorCounts
from shortcutlab.families.audit.scan.indicator_fitters import (
    AttributeFitter,
    Block,
    SurfaceFitter,
    dense_counts,
    rows_reader,
)
from shortcutlab.families.audit.scan.inputs import AuditInputs
from shortcutlab.families.audit.scan.lexicons import LexiconMatcher, packaged_lexicons
from shortcutlab.families.audit.scan.memory import release_freed_memory
from shortcutlab.families.audit.scan.metadata_values import (
    as_numbers,
    check_metadata_columns,
    is_missing,
    value_name,
)
from shortcutlab.families.audit.scan.surface import QuantileBins
from shortcutlab.families.audit.scan.text_slices import text_slices
from shortcutlab.families.audit.scan.tokens import TOKEN_PATTERN
from shortcutlab.families.audit.scan.word_fitters import (
    LexiconFitter,
    TokenFitter,
    WordPresenceFitter,
)
from shortcutlab.params import check_positive_int, quoted, require

#: Numeric metadata columns with more distinct values than this are binned at quartiles.
MAX_METADATA_VALUES = 10
#: Annotators whose fitted values are words, scanned as "the row contains the word".
WORD_SET_ATTRIBUTES = ("frequent-words",)
#: What the fit of one part holds while the slices pass.
Fitter = TokenFitter | AttributeFitter | WordPresenceFitter | SurfaceFitter | LexiconFitter


@dataclass(frozen=True)
class FeatureConfig:
    """What a scan looks at; every choice is fitted on the training rows."""

    ngram_max: int = 2
    min_support: int = 20
    max_features: int | None = None
    attributes: tuple[str, ...] = ("negation", "question", "frequent-words")
    attribute_options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    surface: bool = True
    #: Your word lists (name -> phrases), tested beside the packaged ones; a list named like a
    #: packaged one replaces it. ``packaged_lexicons=False`` leaves the packaged lists out.
    lexicons: Mapping[str, Sequence[str]] = field(default_factory=dict)
    packaged_lexicons: bool = True
    metadata: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        check_positive_int("audit", "ngram_max", self.ngram_max)
        check_positive_int("audit", "min_support", self.min_support)
        if self.max_features is not None:
            check_positive_int("audit", "max_features", self.max_features)
        unknown = sorted(set(self.attribute_options) - set(self.attributes))
        require(
            not unknown, "audit", "attribute_options", "keyed by attributes being scanned", unknown
        )

    def word_lists(self) -> dict[str, list[str]]:
        """Every word list the scan tests: the packaged ones (unless left out), then yours."""
        packaged = packaged_lexicons() if self.packaged_lexicons else {}
        return packaged | {name: list(phrases) for name, phrases in self.lexicons.items()}


class FeaturePlan:
    """The indicators fitted on the training rows; :meth:`transform` applies them to any table."""

    def __init__(
        self, config: FeatureConfig, paired: bool, blocks: list[Block], details: dict
    ) -> None:
        self.feature_config = config
        self.paired = paired
        self._blocks = blocks
        self._details = details

    def transform(self, inputs: AuditInputs) -> FeatureSet:
        """The same indicators, in the same column order, for the rows of ``inputs``."""
        if inputs.paired != self.paired:
            have, want = ("pairs", "single texts") if inputs.paired else ("single texts", "pairs")
            raise DataError(
                f"The table holds {have} but the features were fitted on {want}; give both tables the same text columns."
            )
        check_metadata_columns(inputs.columns, self.feature_config.metadata)
        return self._assemble(len(inputs), [block.build(inputs) for block in self._blocks])

    def _described(self, rows: int) -> FeatureSet:
        """The kept features' keys, names, kinds, parts, groups and phrases, without a matrix."""
        features = FeatureSet([], [], [], [], [], [], sp.csr_matrix((rows, 0), dtype=np.int32))
        for block in self._blocks:
            for j in block.kept.tolist():
                name = block.names[j]
                kind = "ngram" if block.kind == "token" and " " in name else block.kind
                features.keys.append(f"{kind}:{block.part}:{name}")
                prefix = f"{block.part}: " if self.paired and block.part else ""
                features.names.append(prefix + name)
                features.kinds.append(kind)
                features.parts.append(block.part)
                features.groups.append(block.group(name) if callable(block.group) else block.group)
                features.phrases.append(name if block.phrases else None)
        return features

    def _assemble(self, rows: int, matrices: list[sp.csr_matrix | np.ndarray]) -> FeatureSet:
        """The FeatureSet of one table from each block's full (fitted names) matrix; ``matrices``
        is emptied as they are read (each is let go once joined: peak memory)."""
        features = self._described(rows)
        kept_matrices = []
        if len(matrices) != len(self._blocks):
            raise ValueError("one matrix per block")
        for block in self._blocks:
            matrix = matrices.pop(0)
            if not len(block.kept):
                continue
            kept = matrix  # (a CSR int32 matrix is taken as it is: no copy of its entries)
            if not (sp.isspmatrix_csr(matrix) and matrix.dtype == np.int32):
                kept = sp.csr_matrix(matrix, dtype=np.int32)
            if len(block.kept) < kept.shape[1]:  # (kept holds sorted distinct columns)
                kept = kept[:, block.kept]
            kept_matrices.append(kept)
            del matrix, kept
        if kept_matrices:
            features.matrix = join_indicator_blocks(kept_matrices, rows)
        return features

    def _scanned(self, train: AuditInputs, counts: list[IndicatorCounts]) -> FeatureSet:
        """The training rows' FeatureSet: the kept features' counts, no matrix; chosen columns
        are read again from the rows, one pass over each part's slices for all of them."""
        features = self._described(len(train))
        features.counts = IndicatorCounts.joined(
            [c.take(b.kept) for b, c in zip(self._blocks, counts, strict=True)],
            len(train.labels),
        )
        where = [(block, int(j)) for block in self._blocks for j in block.kept.tolist()]

        def read(
            columns: Sequence[int],
            stop: int | None = None,
            groups: Sequence[Sequence[int]] | None = None,
            start: int = 0,
        ) -> np.ndarray:
            stop = len(train) if stop is None else min(stop, len(train))
            start = min(start, stop)
            # With groups (lists of positions in ``columns``), each output column is whether a
            # row has any of a group's: ORed slice by slice, never (rows × columns) at once.
            width = len(columns) if groups is None else len(groups)
            members = [set(group) for group in groups or ()]
            out = np.zeros((stop - start, width), dtype=bool)
            for part in train.parts():
                # The metadata blocks (no part) are read with the first part's slices.
                wanted = [
                    (block, [i for i, c in enumerate(columns) if where[c][0] is block])
                    for block in self._blocks
                    if block.part == part or (not block.part and part == train.parts()[0])
                ]
                wanted = [(block, at) for block, at in wanted if at and block.read is not None]
                if not wanted:
                    continue
                for piece in text_slices(train, part):
                    if piece.start >= stop:
                        break
                    if piece.stop <= start:
                        continue
                    skip = max(start - piece.start, 0)
                    for block, at in wanted:
                        chosen = [where[columns[i]][1] for i in at]
                        read_here = block.read(piece, chosen)[skip : stop - piece.start]
                        first = piece.start + skip - start
                        rows = slice(first, first + len(read_here))
                        if groups is None:
                            # A run of columns is a slice: fancy assignment copies column by column.
                            run = at == list(range(at[0], at[0] + len(at)))
                            out[rows, slice(at[0], at[0] + len(at)) if run else at] = read_here
                            continue
                        for g, group in enumerate(members):
                            inside = [k for k, i in enumerate(at) if i in group]
                            if inside:
                                out[rows, g] |= read_here[:, inside].any(axis=1)
            return out

        features.matrix = None
        features.reader = read
        return features

    def config(self) -> dict[str, Any]:
        """What was fitted, as JSON: vocabulary sizes, bin edges, attribute configs, counts by kind."""
        counts: dict[str, int] = {}
        for block in self._blocks:
            for j in block.kept.tolist():
                kind = "ngram" if block.kind == "token" and " " in block.names[j] else block.kind
                counts[kind] = counts.get(kind, 0) + 1
        config = self.feature_config
        return {
            "ngram_max": config.ngram_max,
            "min_support": config.min_support,
            "max_features": config.max_features,
            "token_pattern": TOKEN_PATTERN,
            "paired": self.paired,
            **self._details,
            "features": dict(sorted(counts.items())),
        }


def fit_features(train: AuditInputs, config: FeatureConfig) -> tuple[FeaturePlan, FeatureSet]:
    """Fit the indicators on the training rows, a slice at a time; return the plan and the
    training rows' features (their counts; :meth:`FeatureSet.columns` reads chosen columns)."""
    check_metadata_columns(train.columns, config.metadata)
    fitted: list[tuple[Block, IndicatorCounts]] = []
    details: dict[str, Any] = {"parts": {}}
    lexicons = config.word_lists()
    matcher = LexiconMatcher(lexicons)
    for part in train.parts():
        fitters = _fitters(part, train, config, matcher if lexicons else None)
        for piece in text_slices(train, part):
            for fitter in fitters:
                fitter.add(piece)
            del piece
        part_details: dict[str, Any] = {}
        for fitter in fitters:
            fitted.append(fitter.finish(part_details))
        details["parts"][part] = part_details
        del fitters
        release_freed_memory()  # the part's counting state (memory.py)
    details["lexicons"] = matcher.config()
    details["metadata"] = {}
    for column in config.metadata:
        block, column_details = _metadata_block(column, train.columns[column])
        block.read = rows_reader(block.build, train)
        matrix = np.asarray(block.build(train), dtype=bool)
        fitted.append((block, dense_counts(matrix, train.ranks, len(train.labels))))
        details["metadata"][column] = column_details
    for block, counts in fitted:
        block.kept = np.flatnonzero(counts.support >= config.min_support)
    plan = FeaturePlan(config, train.paired, [block for block, _ in fitted], details)
    return plan, plan._scanned(train, [counts for _, counts in fitted])


def _fitters(
    part: str, train: AuditInputs, config: FeatureConfig, matcher: LexiconMatcher | None
) -> list[Fitter]:
    """The fitters of one part, in the order of its blocks: tokens, attributes, surface, lexicons."""
    tokens = TokenFitter(part, train, config.ngram_max, config.min_support, config.max_features)
    fitters: list[Fitter] = [tokens]
    for name in config.attributes:
        attribute = make_attribute(name, config.attribute_options.get(name))
        if name in WORD_SET_ATTRIBUTES:  # fitted on the words the token scan counts anyway
            fitters.append(WordPresenceFitter(part, attribute, train, tokens))
        else:
            fitters.append(AttributeFitter(part, attribute, train))
    if config.surface:
        fitters.append(SurfaceFitter(part, train))
    if matcher is not None:
        fitters.append(LexiconFitter(part, matcher, train, tokens))
    return fitters


def _metadata_block(column: str, train_values: Sequence[Any]) -> tuple[Block, dict[str, Any]]:
    numbers = as_numbers(train_values)
    if numbers is not None and len(np.unique(numbers[~np.isnan(numbers)])) > MAX_METADATA_VALUES:
        integer = bool(np.all(np.mod(numbers[~np.isnan(numbers)], 1) == 0))
        bins = QuantileBins.fit(column, numbers, integer=integer)

        def build_bins(inputs: AuditInputs) -> np.ndarray:
            values = as_numbers(inputs.columns[column])
            if values is None:
                raise DataError(
                    f"Metadata column {quoted(column)} is numeric in the training rows but not in this table; give it numbers there too."
                )
            return bins.indicators(values)

        return Block("metadata", "", column, bins.names(), build_bins), {"binned": bins.config()}
    values = sorted({value_name(v) for v in train_values if not is_missing(v)})

    def build_values(inputs: AuditInputs) -> np.ndarray:
        names = np.array(
            [None if is_missing(v) else value_name(v) for v in inputs.columns[column]], dtype=object
        )
        return names[:, None] == np.array(values, dtype=object)[None, :]

    names = [f"{column} = {value}" for value in values]
    return Block("metadata", "", column, names, build_values), {"values": values}
