"""Binary indicators of a table, fitted on the training rows: tokens and n-grams, attribute values,
surface properties, lexicons and metadata values.

:func:`fit_features` fixes every data-dependent choice on the training rows (the vocabulary, the
length and readability bins, the frequent words, the metadata values) and keeps only indicators
that at least ``min_support`` training rows have; :meth:`FeaturePlan.transform` then gives any
table (the test rows) the same columns in the same order.

Tokens keep negation contractions whole ("don't", "isn't"; a tokenised "do n't" reads as "don't")
and single-character words, because the best-known annotation artefacts are exactly these words:
"not", "no", "never", "nothing" in MNLI hypotheses (Gururangan et al. 2018, table 2).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import scipy.sparse as sp

from shortcutlab.attributes import Attribute, make_attribute
from shortcutlab.attributes.lexical import normalised
from shortcutlab.attributes.words import SplitWords, spaced_phrases, word_presence
from shortcutlab.errors import DataError
from shortcutlab.families.audit.candidates import FeatureSet, indicator_support
from shortcutlab.families.audit.columns import join_indicator_blocks
from shortcutlab.families.audit.inputs import AuditInputs
from shortcutlab.families.audit.lexicons import LexiconMatcher, packaged_lexicons
from shortcutlab.families.audit.memory import release_freed_memory
from shortcutlab.families.audit.metadata_values import (
    as_numbers,
    check_metadata_columns,
    is_missing,
    value_name,
)
from shortcutlab.families.audit.surface import (
    QuantileBins,
    SurfacePlan,
    fit_surface,
    surface_measures,
)
from shortcutlab.families.audit.tokens import (
    CLITIC_BREAK,
    TOKEN_PATTERN,
    clitics_cut,
    spaced_from_words,
    token_texts,
)
from shortcutlab.families.audit.vocabulary import frequent_ngrams
from shortcutlab.params import check_positive_int, quoted, require

#: Numeric metadata columns with more distinct values than this are binned at quartiles.
MAX_METADATA_VALUES = 10


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


@dataclass
class _Block:
    """Indicators of one family for one part: names as fitted, and the columns kept."""

    kind: str
    part: str
    group: Callable[[str], str] | str
    names: list[str]
    build: Callable[[AuditInputs], sp.csr_matrix | np.ndarray]
    phrases: bool = False
    kept: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))


class FeaturePlan:
    """The indicators fitted on the training rows; :meth:`transform` applies them to any table."""

    def __init__(
        self, config: FeatureConfig, paired: bool, blocks: list[_Block], details: dict
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

    def _assemble(self, rows: int, matrices: list[sp.csr_matrix | np.ndarray]) -> FeatureSet:
        """The FeatureSet of one table from each block's full (fitted names) matrix; ``matrices``
        is emptied as they are read (each is let go once joined: peak memory)."""
        features = FeatureSet([], [], [], [], [], [], sp.csr_matrix((rows, 0), dtype=np.int32))
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
        if kept_matrices:
            features.matrix = join_indicator_blocks(kept_matrices, rows)
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


#: Annotators whose fitted values are words, scanned as "the row contains the word".
WORD_SET_ATTRIBUTES = ("frequent-words",)
#: Annotators that read the texts as one Arrow array as well (the table's, made once: no copy).
ARROW_ATTRIBUTES = ("negation", "question")


def fit_features(train: AuditInputs, config: FeatureConfig) -> tuple[FeaturePlan, FeatureSet]:
    """Fit the indicators on the training rows; return the plan and the training rows' features."""
    check_metadata_columns(train.columns, config.metadata)
    fitted: list[tuple[_Block, sp.csr_matrix | np.ndarray]] = []
    details: dict[str, Any] = {"parts": {}}
    lexicons = config.word_lists()
    matcher = LexiconMatcher(lexicons)
    for part in train.parts():
        texts = train.part(part)
        part_details: dict[str, Any] = {}
        # The spaced words are made on the way when an indicator reads them.
        spaced = bool(lexicons) or any(a in WORD_SET_ATTRIBUTES for a in config.attributes)
        fitted.append(_token_block(part, train, config, part_details, spaced))
        release_freed_memory()  # each stage's peak starts from the live data (memory.py)
        for name in config.attributes:
            attribute = make_attribute(name, config.attribute_options.get(name))
            if name in WORD_SET_ATTRIBUTES:  # fitted on the spaced words the scan reads anyway
                split = SplitWords(train.spaced(part))  # one split: counts and presence
                attribute = attribute.fitted(texts, spaced=train.spaced(part), split=split)
                fitted.append(_word_presence_block(part, attribute, split))
                del split
            else:
                read = train.array(part) if name in ARROW_ATTRIBUTES else texts
                attribute = attribute.fitted(read)
                fitted.append(_attribute_block(part, attribute, read, train))
            part_details.setdefault("attributes", {})[name] = attribute.config()
            release_freed_memory()
        if config.surface:
            measures = surface_measures(train.array(part))
            surface = fit_surface(measures)
            indicators = surface.indicators(train.array(part), measures)
            fitted.append((_surface_block(part, surface), indicators))
            part_details["surface"] = surface.config()
            release_freed_memory()
        if lexicons:
            block = _lexicon_block(part, matcher)
            fitted.append((block, block.build(train)))
        details["parts"][part] = part_details
    details["lexicons"] = matcher.config()
    details["metadata"] = {}
    for column in config.metadata:
        block, column_details = _metadata_block(column, train.columns[column])
        fitted.append((block, block.build(train)))
        details["metadata"][column] = column_details
    train.release_word_views()
    release_freed_memory()
    for block, matrix in fitted:
        block.kept = np.flatnonzero(indicator_support(matrix) >= config.min_support)
    matrices = [matrix for _, matrix in fitted]
    plan = FeaturePlan(config, train.paired, [block for block, _ in fitted], details)
    del fitted  # the matrices are held by ``matrices`` alone, which the assembly empties
    return plan, plan._assemble(len(train), matrices)


def _token_block(
    part: str, train: AuditInputs, config: FeatureConfig, details: dict, spaced: bool
) -> tuple[_Block, sp.csr_matrix]:
    """The word and n-gram indicators of one part, fitted on the training rows'
    :func:`~shortcutlab.attributes.lexical.normalised` texts. With ``spaced``, their spaced-word view is
    made from the scan's words on the way (:func:`~shortcutlab.families.audit.tokens.spaced_from_words`)."""
    # The texts are lower-cased and their clitics cut a chunk at a time, in the scan: no copy of
    # all of them is held next to the scan's position arrays (peak memory).
    texts = train.array(part)
    spaced_chunks: list[pa.Array] = []
    last_chunk: list[pa.Array] = []  # the chunk being scanned, lower-cased
    has_word = False

    def prepare(chunk: pa.Array) -> pa.Array:
        nonlocal has_word
        last_chunk[:] = [normalised(chunk)]
        prepared = clitics_cut(last_chunk[0])
        has_word = has_word or pc.any(pc.match_substring_regex(prepared, r"\w")).as_py()
        return prepared

    def keep_spaced(start: int, found: pa.ListArray) -> None:
        spaced_chunks.append(spaced_from_words(found, last_chunk[0]))

    options = dict(
        token_pattern=TOKEN_PATTERN,
        lowercase=False,
        binary=True,
        ngram_range=(1, config.ngram_max),
        dtype=np.int32,
    )
    vocabulary, train_matrix = frequent_ngrams(
        texts,
        ngram_max=config.ngram_max,
        min_support=config.min_support,
        max_features=config.max_features,
        token_pattern=TOKEN_PATTERN,
        on_words=keep_spaced if spaced else None,
        prepare=prepare,
        breaks=(CLITIC_BREAK,),
    )
    last_chunk.clear()
    if not has_word:  # no word for the vectorizer: no token indicator
        vocabulary, train_matrix = [], sp.csr_matrix((len(texts), 0), dtype=np.int32)
    elif spaced_chunks and sum(len(chunk) for chunk in spaced_chunks) == len(texts):
        train.keep_spaced(part, pa.concat_arrays(spaced_chunks))
    details["vocabulary"] = len(vocabulary)

    def build(inputs: AuditInputs) -> sp.csr_matrix:
        rows = len(inputs)
        if not vocabulary:
            return sp.csr_matrix((rows, 0), dtype=np.int32)
        # Other tables only (a test table, held-out rows): scikit-learn loads when one is read.
        from sklearn.feature_extraction.text import CountVectorizer

        vectorizer = CountVectorizer(vocabulary=vocabulary, **options)
        return vectorizer.transform(token_texts(inputs.part(part)))

    block = _Block("token", part, part, vocabulary, build, phrases=True)
    return block, train_matrix


def _attribute_block(
    part: str, attribute: Attribute, train_texts: Sequence[str], train: AuditInputs
) -> tuple[_Block, np.ndarray]:
    train_values = _annotated(attribute, train_texts, train.columns)
    values = attribute.possible_values()
    if values is None:
        values = sorted({v for v in train_values.tolist() if v is not None})
    if len(values) == 2 and not any(v is None for v in train_values.tolist()):
        # A two-valued attribute every row has (with / without negation): the second value is the
        # first's complement, the same 2×K table and test, so it is one candidate, not two.
        values = values[:1]
    columns = np.array(values, dtype=object)[None, :]

    def build(inputs: AuditInputs) -> np.ndarray:
        read = inputs.array(part) if attribute.name in ARROW_ATTRIBUTES else inputs.part(part)
        return _annotated(attribute, read, inputs.columns)[:, None] == columns

    names = [f"{attribute.name} = {value}" for value in values]
    block = _Block("attribute", part, attribute.name, names, build)
    return block, train_values[:, None] == columns


def _word_presence_block(
    part: str, attribute: Attribute, train_words: SplitWords
) -> tuple[_Block, np.ndarray]:
    """One indicator per fitted word: the row contains it (as a whole word).

    The frequent-words annotator gives each row one value, the rarest pool word it holds, which is
    what an MPS build needs; as an audit candidate that value would read "honestly and no rarer
    frequent word", which points wherever the rarer words do not. Presence means what it says (and
    a word with exactly the rows of its token is folded into that token's candidate).
    """
    words = attribute.possible_values() or []
    # Single words, spelled as the spaced view spells them.
    spelled = [phrase.strip() for phrase in spaced_phrases(words)]

    def build(inputs: AuditInputs) -> np.ndarray:
        return word_presence(inputs.spaced(part), spelled)

    names = [f"{attribute.name} has '{word}'" for word in words]
    block = _Block("attribute", part, attribute.name, names, build)
    return block, train_words.presence(spelled)


def _annotated(
    attribute: Attribute, texts: Sequence[str], columns: Mapping[str, Any]
) -> np.ndarray:
    annotated = attribute.annotate(texts, columns).values
    return np.array([None if v is None else str(v) for v in annotated.tolist()], dtype=object)


def _surface_block(part: str, surface: SurfacePlan) -> _Block:
    names, groups = surface.columns()
    group_of = dict(zip(names, groups, strict=True))
    return _Block(
        "surface",
        part,
        group_of.__getitem__,
        names,
        lambda inputs: surface.indicators(inputs.part(part)),
    )


def _lexicon_block(part: str, matcher: LexiconMatcher) -> _Block:
    names = [f"lexicon = {name}" for name in matcher.names]
    return _Block(
        "lexicon",
        part,
        "lexicon",
        names,
        lambda inputs: matcher.matrix(inputs.spaced(part)),
    )


def _metadata_block(column: str, train_values: Sequence[Any]) -> tuple[_Block, dict[str, Any]]:
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

        return _Block("metadata", "", column, bins.names(), build_bins), {"binned": bins.config()}
    values = sorted({value_name(v) for v in train_values if not is_missing(v)})

    def build_values(inputs: AuditInputs) -> np.ndarray:
        names = np.array(
            [None if is_missing(v) else value_name(v) for v in inputs.columns[column]], dtype=object
        )
        return names[:, None] == np.array(values, dtype=object)[None, :]

    names = [f"{column} = {value}" for value in values]
    return _Block("metadata", "", column, names, build_values), {"values": values}
