"""What a scan finds: indicator features and the tidy candidate table's columns.

Every candidate of the label-association scan is an *indicator* (a row has the feature or not) and
a *label*: "the hypothesis contains 'not'" with contradiction, "length = long" with positive,
"source = forum" with negative. One :class:`FeatureSet` holds the indicators of one table as a
sparse (rows × features) matrix; the features are fitted on the training rows (a vocabulary, the
length bins' edges, the frequent words) and applied unchanged to the test rows, so column ``j``
means the same thing in both.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy.sparse as sp

from shortcutlab.families.audit.scan.indicator_counts import IndicatorCounts

#: Candidate kinds, in the order the tidy table lists them for equal rank.
KINDS = (
    "token",  # a word of one part (text or text_pair)
    "ngram",  # 2..n consecutive words
    "attribute",  # a value of a registered MPS annotator (negation, question, frequent-words, ...)
    "surface",  # length, punctuation, casing, digits, URLs, emoji, sentences, readability
    "lexicon",  # mentions a word of a word list (countries, cities, discourse markers, the user's)
    "metadata",  # a value of a metadata column the user named
    "partial-input",  # one part of a pair alone predicts the label (a hypothesis-only baseline)
    "leakage",  # duplicates between train and test, and label conflicts among duplicates
)
#: Kinds whose candidates are an indicator and a label (its rows against the others, by label).
INDICATOR_KINDS = KINDS[:6]
#: Kinds whose candidates are words that can be removed from a text and inserted into one: the
#: counterfactual tests and the text repairs apply to them only ("style", triage's set of words
#: of one class, is removed marker by marker).
EDITABLE_KINDS = ("token", "ngram", "style")

#: A candidate's words: one phrase (a token or n-gram), or a style's markers, strongest first.
Phrases = str | tuple[str, ...]

#: Columns of ``audit.csv``, one row per candidate, in this order. Values that a kind has no
#: meaning for are empty (never 0): a leakage row has no label and no lift.
SCAN_COLUMNS = (
    "rank",  # 1.. by evidence among candidates that survive correction, then the rest
    "candidate",  # e.g. "not", "text_pair: not", "negation = with_negation", "length = long"
    "kind",  # one of KINDS
    "part",  # text, text_pair, or "" (metadata, leakage)
    "label",  # the label value the indicator points to
    "support",  # training rows with the indicator
    "label_count",  # of those, rows with the label
    "p_label_given_candidate",  # label_count / support
    "prior",  # the label's share of all training rows
    "lift",  # p_label_given_candidate / prior (effect size)
    "pmi",  # log2(lift)
    "p_value",  # G-test of independence, the 2×K table with/without the indicator × label
    "p_adjusted",  # over every candidate tested (Benjamini–Hochberg or Holm)
    "significant",  # p_adjusted < alpha
    "evidence",  # -log10 p_value from the log survival function (finite where p underflows)
    "association",  # Cramér's V of the whole column (metadata), else empty
    "test_support",  # test rows with the indicator (when a test table is given)
    "test_p_label_given_candidate",
    "test_lift",
    "drift_p",  # two-proportion z-test: p(label | indicator) in train vs test
    "drift_p_adjusted",  # the same correction over the candidates compared
    "detail",  # a sentence for kinds without a label test (partial-input, leakage)
)

#: Columns a measurement adds for a candidate (empty for candidates not measured).
MEASURE_COLUMNS = (
    "relied_on",  # a counterfactual test says so (True/False; empty: no test applies, or unseen)
    "visible",  # the model's tokenizer and vocabulary see the token/n-gram (empty: no view)
    "reliance_p",  # smallest p of the edits pointing its way, Bonferroni over the tests run
    "reliance_p_adjusted",  # over the candidates (scan's correction); < alpha: relied_on
    "aligned_rows",  # rows where "candidate's label iff the indicator fires" is right
    "aligned_accuracy",
    "conflicting_rows",  # the other rows (indicator on another label, or off on its label)
    "conflicting_accuracy",
    "delta",  # association Δ: aligned - conflicting accuracy within each gold label, by rows
    "delta_low",  # 95 % percentile bootstrap (rows within each label and group; one fit)
    "delta_high",
    "delta_p",  # Cochran–Mantel–Haenszel test over the gold labels delta uses
    "delta_p_adjusted",  # over the candidates measured (the scan's correction method)
    "delta_rows",  # rows of the gold labels delta uses (both groups >= 10 rows there)
    "aligned_ece",  # empty when either group has fewer than 200 rows (ECE is biased upward)
    "conflicting_ece",
    "calibration_gap",  # conflicting_ece - aligned_ece
    "removal_rows",  # rows where the token/n-gram occurs and was removed (token kinds only)
    "removal_changed",  # invariance: share of those whose predicted label changed (flip rate)
    "removal_changed_low",  # exact (Clopper–Pearson) 95 % interval of the flip rate
    "removal_changed_high",
    "removal_accuracy_before",
    "removal_accuracy_after",
    "removal_label_shift",  # mean change of p(candidate label) after removal
    "removal_shift_low",
    "removal_shift_high",
    "removal_p",  # exact McNemar on paired correctness before/after removal
    "removal_p_adjusted",  # over the candidates with a removal_p (same correction)
    "removal_label_p",  # exact McNemar on paired "predicts the candidate's label"
    "removal_label_p_adjusted",
    "insertion_rows",  # rows of the other labels without it, the candidate inserted (<= 500)
    "insertion_changed",
    "insertion_changed_low",  # exact (Clopper–Pearson) 95 % interval of the flip rate
    "insertion_changed_high",
    "insertion_accuracy_before",
    "insertion_accuracy_after",
    "insertion_label_shift",  # mean change of p(candidate label) after insertion
    "insertion_shift_low",
    "insertion_shift_high",
    "insertion_p",  # exact McNemar on paired correctness before/after insertion
    "insertion_p_adjusted",
    "insertion_label_p",  # exact McNemar on paired "predicts the candidate's label"
    "insertion_label_p_adjusted",
    "anti_rows",  # rows of the redistribution anti-test (association reversed)
    "anti_accuracy",
    "removed_rows",  # rows of the redistribution set with the association removed
    "removed_accuracy",
    "aligned_set_rows",  # rows of the redistribution set with the association as in training
    "aligned_set_accuracy",
    "anti_delta",  # aligned_set_accuracy - anti_accuracy
    "anti_delta_low",
    "anti_delta_high",
)


@dataclass(frozen=True)
class Candidate:
    """One candidate of the audit table as the later stages (reliance, repair) read it,
    identified by its ``key``; ``name`` is what a person reads, ``label`` the rank of the label
    it points to, ``phrase`` its words where it is :attr:`editable` (else None)."""

    key: str
    name: str
    kind: str
    part: str  # text, text_pair, or "" (metadata): where its words are
    label: int
    phrase: Phrases | None = None

    @property
    def editable(self) -> bool:
        """Whether its words can be removed from and inserted into the rows' text."""
        return self.kind in EDITABLE_KINDS and bool(self.phrase)

    @classmethod
    def from_row(cls, row: Any, phrases: Mapping[str, Phrases | None]) -> Candidate:
        """The candidate of one row of the audit table (``itertuples``; it must have a label),
        its words looked up by key in ``phrases`` when its kind is editable."""
        return cls(
            key=row.key,
            name=str(row.candidate),
            kind=row.kind,
            part=row.part,
            label=int(row.label_rank),
            phrase=phrases[row.key] if row.kind in EDITABLE_KINDS else None,
        )


@dataclass
class FeatureSet:
    """Indicators of one table: ``matrix[i, j]`` is 1 when row ``i`` has feature ``j``.

    ``keys`` are stable identifiers (``kind:part:name``); ``names`` what a person reads;
    ``phrases`` the words of a token or n-gram feature (lower case, single spaces; what
    highlighting and counterfactual removal look for), ``None`` for other kinds; ``groups`` the
    family a feature belongs to (an attribute's or metadata column's name, ``length``; for tokens
    the part), so a column's values can be read together.
    """

    keys: list[str]
    names: list[str]
    kinds: list[str]
    parts: list[str]
    groups: list[str]
    phrases: list[str | None]
    #: None for the scanned (training) table, whose indicators are kept as ``counts``.
    matrix: sp.csr_matrix | None
    #: Per feature, its rows' counts and fingerprint (the scanned table).
    counts: IndicatorCounts | None = None
    #: Where ``matrix`` is None: the (rows × chosen) indicators of chosen features, read again.
    reader: Callable[..., np.ndarray] | None = field(default=None, repr=False)
    #: Each key's column, built on first use (a list's index() per key cost seconds).
    _positions: dict[str, int] | None = field(default=None, repr=False, compare=False)

    def __len__(self) -> int:
        return len(self.keys)

    def column(self, key: str) -> np.ndarray:
        """The boolean indicator of feature ``key`` over the rows."""
        return self.columns([key])[key]

    def columns(self, keys: Sequence[str], *, rows: int | None = None) -> dict[str, np.ndarray]:
        """The boolean indicators of features ``keys`` (of the first ``rows`` rows; None: all),
        by key: the columns of :meth:`block`."""
        keys = list(dict.fromkeys(keys))
        read = self.block(keys, rows=rows)
        return {key: read[:, j] for j, key in enumerate(keys)}

    def block(self, keys: Sequence[str], *, rows: int | None = None) -> np.ndarray:
        """(rows × ``keys``) boolean indicators of the first ``rows`` rows (None: all), read in
        one pass over the matrix (each column of a row-major matrix costs a pass of its own),
        or over the rows."""
        at = self._columns_of(keys)
        if self.matrix is None:
            return self._reader()(at, rows)
        matrix = self.matrix if rows is None else self.matrix[:rows]
        return np.asarray((matrix[:, at] != 0).toarray(), dtype=bool)

    def any_of(self, groups: Sequence[Sequence[str]], *, start: int = 0) -> np.ndarray:
        """(rows from ``start`` × ``groups``) boolean: whether a row has any feature of each
        group of keys, in one pass (a group's columns are never held for every row at once)."""
        keys = list(dict.fromkeys(key for group in groups for key in group))
        where = {key: i for i, key in enumerate(keys)}
        at = [[where[key] for key in group] for group in groups]
        if self.matrix is None:
            return self._reader()(self._columns_of(keys), None, at, start)
        picked = self.matrix[start:, self._columns_of(keys)]
        return np.column_stack(
            [np.asarray(picked[:, group].sum(axis=1)).ravel() > 0 for group in at]
        ).reshape(picked.shape[0], len(groups))

    def _columns_of(self, keys: Sequence[str]) -> list[int]:
        if self._positions is None or len(self._positions) != len(self.keys):
            self._positions = {key: j for j, key in enumerate(self.keys)}
        return [self._positions[key] for key in keys]

    def _reader(self) -> Callable[..., np.ndarray]:
        if self.reader is None:
            raise ValueError("this FeatureSet holds neither a matrix nor a reader")
        return self.reader
