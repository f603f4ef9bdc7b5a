"""Leakage: test rows that repeat training rows, and duplicates that disagree on the label.

A test row whose text (both parts, for pairs) also sits in the training data measures memory, not
generalisation; a duplicate with a different label is noise a model cannot fit. Exact duplicates
compare normalised text (lower case, whitespace collapsed). Near duplicates are found by
:mod:`~shortcutlab.families.audit.scan.near_duplicates` (MinHash of word shingles, every hit checked
with the true Jaccard similarity).

Each test row is reported once, with one training partner: for exact duplicates a training copy
with the same label when there is one (so a *conflict* means no training copy carries the test
row's label), for near duplicates the most similar training row.

Examples:
    >>> train = AuditInputs(np.arange(3), ["I love it", "so bad", "So  BAD"], np.array([1, 0, 1]), LabelSpace((0, 1)))
    >>> test = AuditInputs(np.arange(2), ["i love IT", "nothing alike"], np.array([1, 1]), LabelSpace((0, 1)))
    >>> leakage = find_leakage(train, test)
    >>> [(pair.train_row, pair.test_row, pair.exact) for pair in leakage.exact], leakage.train_conflicts
    ([(0, 0, True)], [(1, 2)])
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import pandas as pd

from shortcutlab.attributes.lexical import text_array
from shortcutlab.data.labels import LabelSpace
from shortcutlab.data.overlap import collapsed, row_keys
from shortcutlab.errors import ConfigError, DataError, ended, knob
from shortcutlab.families.audit.scan.inputs import AuditInputs
from shortcutlab.families.audit.scan.text_slices import SLICE_ROWS
from shortcutlab.params import quoted

#: pandas' SipHash keys (16 bytes each) of the two hashes of a row's normalised text.
_HASH_KEYS = ("shortcutlab-dup0", "shortcutlab-dup1")


@dataclass
class DuplicatePair:
    """A test row and a training row with the same (``exact``) or a similar text; row positions."""

    train_row: int
    test_row: int
    similarity: float
    exact: bool
    train_label: int
    test_label: int

    @property
    def conflict(self) -> bool:
        return self.train_label != self.test_label


@dataclass
class Leakage:
    """What :func:`find_leakage` found. ``train_conflicts`` pairs training rows with the same
    normalised text and different labels (each such row appears in at least one pair);
    ``train_duplicate_rows`` counts training rows that repeat an earlier training row's text."""

    exact: list[DuplicatePair]
    near: list[DuplicatePair]
    train_conflicts: list[tuple[int, int]]
    train_duplicate_rows: int = 0
    test_rows: int | None = None
    threshold: float = 0.8

    def summary_rows(self, labels: LabelSpace) -> list[dict[str, Any]]:
        """Rows for the candidate table (kind ``leakage``; no label, no p-value)."""
        rows = []
        if self.test_rows is not None:
            for name, pairs in (("exact", self.exact), ("near", self.near)):
                what = "the same text" if name == "exact" else f"Jaccard ≥ {self.threshold:g}"
                detail = (
                    f"{len(pairs)} of {self.test_rows} test rows ({_share(len(pairs), self.test_rows)}) "
                    f"have a training row with {what}; {_conflicts_text(pairs, labels)}"
                )
                rows.append(_leakage_row(f"{name} train/test duplicates", len(pairs), detail))
        conflicting_rows = len({row for pair in self.train_conflicts for row in pair})
        detail = (
            f"{self.train_duplicate_rows} training rows repeat an earlier training row's text; "
            f"{conflicting_rows} rows share a text with a row of another label"
        )
        rows.append(
            _leakage_row("training duplicates with different labels", conflicting_rows, detail)
        )
        return rows

    def to_json(
        self, train: AuditInputs, test: AuditInputs | None, examples: int = 5
    ) -> dict[str, Any]:
        """Counts and up to ``examples`` example pairs of each kind (conflicts first), with row ids,
        texts and label values."""
        values = train.labels.values
        result: dict[str, Any] = {
            "threshold": self.threshold,
            "test_rows": self.test_rows,
            "train_duplicate_rows": self.train_duplicate_rows,
            "train_conflicts": {
                "pairs": len(self.train_conflicts),
                "examples": [
                    {
                        "rows": [_row_json(train, a, values), _row_json(train, b, values)],
                    }
                    for a, b in self.train_conflicts[:examples]
                ],
            },
        }
        for name, pairs in (("exact", self.exact), ("near", self.near)):
            if test is None:
                result[name] = None
                continue
            ordered = sorted(
                pairs, key=lambda pair: (not pair.conflict, -pair.similarity, pair.test_row)
            )
            result[name] = {
                "rows": len(pairs),
                "conflicts": sum(pair.conflict for pair in pairs),
                "examples": [
                    dict(
                        asdict(pair),
                        conflict=pair.conflict,
                        train=_row_json(train, pair.train_row, values),
                        test=_row_json(test, pair.test_row, values),
                    )
                    for pair in ordered[:examples]
                ],
            }
        return result


def find_leakage(
    train: AuditInputs,
    test: AuditInputs | None,
    *,
    threshold: float = 0.8,
    num_perm: int = 128,
    seed: int = 0,
) -> Leakage:
    """Exact and near (Jaccard ≥ ``threshold`` of word shingles) train/test duplicates, and
    training duplicates with different labels. Deterministic for a ``seed``."""
    if not 0.0 < threshold < 1.0:  # datasketch finds no banding for 1.0
        raise ConfigError(
            f"The 'threshold' parameter of find_leakage must be a float in (0, 1). Got {quoted(threshold)} instead."
        )
    if not isinstance(num_perm, int) or num_perm < 2:
        raise ConfigError(
            f"The 'num_perm' parameter of find_leakage must be an integer >= 2. Got {quoted(num_perm)} instead."
        )
    if test is not None and test.paired != train.paired:
        raise DataError(
            "The test table and the training table must both be pairs or both single texts; "
            f"load both with the same {ended(knob('text_pair_col'))}"
        )
    copies = _Copies(key_hashes(train))
    conflicts = _train_conflicts(copies.mixed_label_groups(train.ranks), train.ranks)
    repeats = len(train) - copies.keys
    if test is None:
        return Leakage([], [], conflicts, repeats, None, threshold)
    exact = _exact_pairs(copies, key_hashes(test), train.ranks, test.ranks)
    exact_rows = {pair.test_row for pair in exact}
    near = _near_pairs(train, test, exact_rows, threshold=threshold, num_perm=num_perm, seed=seed)
    return Leakage(exact, near, conflicts, repeats, len(test), threshold)


def key_hashes(table: AuditInputs) -> np.ndarray:
    """(rows, 2) uint64: two independent 64-bit hashes (pandas' SipHash under two keys) of each
    row's text in lower case with whitespace collapsed, both parts for pairs
    (:func:`~shortcutlab.data.overlap.row_keys`, which builds check their test tables with),
    made a slice of rows at a time: the keys themselves are never all held. Two different texts
    share both hashes with probability 2**-128."""
    hashes = np.empty((len(table), 2), dtype=np.uint64)
    pairs = table.text_slices("text_pair", SLICE_ROWS) if table.paired else itertools.repeat(None)
    for (start, texts), pair in zip(table.text_slices("text", SLICE_ROWS), pairs, strict=False):
        keys = row_keys(texts, None if pair is None else pair[1])
        values = keys.to_numpy(zero_copy_only=False)
        for column, hash_key in enumerate(_HASH_KEYS):
            hashes[start : start + len(texts), column] = pd.util.hash_array(
                values, hash_key=hash_key, categorize=False
            )
    return hashes


class _Copies:
    """The training rows grouped by key (rows in ascending order within a group), found by
    sorting the keys' hashes (a Python dict of 200,000 keys cost seconds)."""

    def __init__(self, hashes: np.ndarray) -> None:
        self.rows = np.lexsort((hashes[:, 1], hashes[:, 0]))  # stable: each group in row order
        ordered = hashes[self.rows]
        self.starts = np.flatnonzero(_new_keys(ordered))
        self.sizes = np.diff(np.append(self.starts, len(ordered)))
        self.keys = len(self.starts)
        self.distinct = ordered[self.starts]  # group k's key, in sorted order

    def group(self, key: int) -> np.ndarray:
        return self.rows[self.starts[key] : self.starts[key] + self.sizes[key]]

    def mixed_label_groups(self, ranks: np.ndarray) -> list[np.ndarray]:
        """The groups of two or more rows whose labels differ."""
        if not self.keys:
            return []
        grouped = np.asarray(ranks)[self.rows]
        low = np.minimum.reduceat(grouped, self.starts)
        high = np.maximum.reduceat(grouped, self.starts)
        return [self.group(key) for key in np.flatnonzero(low != high).tolist()]

    def of(self, hashes: np.ndarray) -> np.ndarray:
        """Per key hash of another table, its group here (-1 for a key no training row has)."""
        both = np.concatenate([self.distinct, hashes])
        asked = np.concatenate([np.zeros(self.keys, bool), np.ones(len(hashes), bool)])
        # Sorted by key, each training key before the asked ones equal to it.
        order = np.lexsort((asked, both[:, 1], both[:, 0]))
        new = _new_keys(both[order])
        first = order[np.flatnonzero(new)][np.cumsum(new) - 1]  # the first entry of each key
        found = np.where(first < self.keys, first, -1)
        groups = np.empty(len(hashes), dtype=np.int64)
        groups[order[asked[order]] - self.keys] = found[asked[order]]
        return groups


def _new_keys(ordered: np.ndarray) -> np.ndarray:
    """Per row of sorted (rows, 2) hashes, whether it starts a new key."""
    new = np.ones(len(ordered), dtype=bool)
    new[1:] = (ordered[1:] != ordered[:-1]).any(axis=1)
    return new


def normalised_texts(texts: Sequence[str]) -> list[str]:
    """Texts in lower case with whitespace collapsed (what exact duplicates compare).

    Examples:
        >>> normalised_texts(["  So\tBAD ", "fine"])
        ['so bad', 'fine']
    """
    return collapsed(text_array(texts)).to_pylist()


def _near_pairs(
    train: AuditInputs,
    test: AuditInputs,
    skip_test_rows: set[int],
    *,
    threshold: float,
    num_perm: int,
    seed: int,
) -> list[DuplicatePair]:
    """Each test row's most similar training row, then one with the test row's label, then
    the earliest."""
    # datasketch (and the scipy parts it loads) only when there is a test table to search.
    from shortcutlab.families.audit.scan.near_duplicates import near_duplicates

    similar = near_duplicates(
        train, test, skip_queries=skip_test_rows, threshold=threshold, num_perm=num_perm, seed=seed
    )
    pairs = []
    for test_row, matches in similar.items():
        train_row, similarity = max(
            matches,
            key=lambda match: (match[1], bool(train.ranks[match[0]] == test.ranks[test_row])),
        )
        pairs.append(_pair(train_row, test_row, similarity, False, train.ranks, test.ranks))
    return pairs


def _exact_pairs(
    train_copies: _Copies,
    test_keys: np.ndarray,
    train_ranks: np.ndarray,
    test_ranks: np.ndarray,
) -> list[DuplicatePair]:
    pairs = []
    groups = train_copies.of(test_keys)
    for test_row in np.flatnonzero(groups >= 0).tolist():
        copies = train_copies.group(int(groups[test_row])).tolist()
        same = [row for row in copies if train_ranks[row] == test_ranks[test_row]]
        partner = same[0] if same else copies[0]
        pairs.append(_pair(partner, test_row, 1.0, True, train_ranks, test_ranks))
    return pairs


def _train_conflicts(groups: list[np.ndarray], ranks: np.ndarray) -> list[tuple[int, int]]:
    """Pairs each row of a text with mixed labels with the group's first row of another label
    (every such row appears, and the pairs stay linear in the group's size)."""
    conflicts: set[tuple[int, int]] = set()
    for group in groups:
        rows = group.tolist()
        first_of_label: dict[int, int] = {}
        for row in rows:
            first_of_label.setdefault(int(ranks[row]), row)
        for row in rows:
            partner = min(r for label, r in first_of_label.items() if label != ranks[row])
            conflicts.add((min(row, partner), max(row, partner)))
    return sorted(conflicts)


def _pair(
    train_row: int,
    test_row: int,
    similarity: float,
    exact: bool,
    train_ranks: np.ndarray,
    test_ranks: np.ndarray,
) -> DuplicatePair:
    return DuplicatePair(
        train_row=int(train_row),
        test_row=int(test_row),
        similarity=float(similarity),
        exact=exact,
        train_label=int(train_ranks[train_row]),
        test_label=int(test_ranks[test_row]),
    )


def _leakage_row(candidate: str, support: int, detail: str) -> dict[str, Any]:
    return dict(candidate=candidate, kind="leakage", part="", support=support, detail=detail)


def _conflicts_text(pairs: list[DuplicatePair], labels: LabelSpace) -> str:
    counts = Counter((pair.train_label, pair.test_label) for pair in pairs if pair.conflict)
    if not counts:
        return "none of them with another label"
    (train_label, test_label), most = min(counts.items(), key=lambda item: (-item[1], item[0]))
    return (
        f"{sum(counts.values())} of them with another label (most often {labels.values[train_label]} "
        f"in train, {labels.values[test_label]} in test: {most})"
    )


def _share(count: int, total: int) -> str:
    return f"{100 * count / total:.1f} %" if total else "—"


def _row_json(table: AuditInputs, row: int, values: Sequence[Any]) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "row_id": _plain(table.row_ids[row]),
        "text": table.text("text", row),
        "label": _plain(values[int(table.ranks[row])]),
    }
    if table.paired:
        entry["text_pair"] = table.text("text_pair", row)
    return entry


def _plain(value: Any) -> Any:
    return value.item() if hasattr(value, "item") else value
