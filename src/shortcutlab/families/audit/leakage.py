"""Leakage: test rows that repeat training rows, and duplicates that disagree on the label.

A test row whose text (both parts, for pairs) also sits in the training data measures memory, not
generalisation; a duplicate with a different label is noise a model cannot fit. Exact duplicates
compare normalised text (lower case, whitespace collapsed). Near duplicates compare word shingles
with MinHash (Broder, 1997): signatures computed with numpy in batches using datasketch's own
``affine32`` permutations, indexed in datasketch's :class:`~datasketch.MinHashLSH` as
:class:`~datasketch.LeanMinHash`, and every hit checked with the true Jaccard similarity of the
shingle sets, so no reported pair rests on the sketch alone.

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

import hashlib
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from datasketch import LeanMinHash, MinHash, MinHashLSH

from shortcutlab.data.labels import LabelSpace
from shortcutlab.errors import ConfigError, DataError
from shortcutlab.families.audit.inputs import AuditInputs

#: Texts with fewer words than this are shingled as words and word pairs instead of word
#: triples, so a 4-word text still has enough shingles to compare. A text just above and one
#: just below the line cannot reach a similarity of 0.8 anyway (their sets differ in size).
SHORT_TEXT_WORDS = 5
#: datasketch's (false positive, false negative) weights for choosing the bands. Every hit is
#: checked with the true Jaccard, so a false hit costs one set comparison while a miss is lost:
#: at 128 permutations and threshold 0.8 the default (0.5, 0.5) gives 9 bands of 13 rows and
#: finds 40 % of the pairs at Jaccard 0.8 (69 % at 0.85); these weights give 16 bands of 8 rows,
#: 95 % at 0.8 and 99 % at 0.85, with 6 % of the pairs at 0.5 checked in vain.
LSH_WEIGHTS = (0.05, 0.95)
_SCHEME = "affine32"
# Shingles hashed per numpy batch: (batch × num_perm) uint32 values, 32 MiB at 128 permutations.
_BATCH_SHINGLES = 65_536


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
            f"The 'threshold' parameter of find_leakage must be a float in (0, 1). Got {threshold!r} instead."
        )
    if not isinstance(num_perm, int) or num_perm < 2:
        raise ConfigError(
            f"The 'num_perm' parameter of find_leakage must be an integer >= 2. Got {num_perm!r} instead."
        )
    if test is not None and test.paired != train.paired:
        raise DataError(
            "The test table and the training table must both be pairs or both single texts; "
            "load both with the same --text-pair-col."
        )
    train_keys = normalised_keys(train)
    by_key: dict[str, list[int]] = defaultdict(list)
    for row, key in enumerate(train_keys):
        by_key[key].append(row)
    conflicts, repeats = _train_conflicts(by_key.values(), train.ranks)
    if test is None:
        return Leakage([], [], conflicts, repeats, None, threshold)
    exact = _exact_pairs(by_key, normalised_keys(test), train.ranks, test.ranks)
    exact_rows = {pair.test_row for pair in exact}
    near = _near_pairs(train, test, exact_rows, threshold=threshold, num_perm=num_perm, seed=seed)
    return Leakage(exact, near, conflicts, repeats, len(test), threshold)


def normalised_keys(table: AuditInputs) -> list[str]:
    """Each row's text in lower case with whitespace collapsed; both parts for pairs (joined by a
    tab, which the collapsing has removed from the parts)."""
    keys = _collapsed(table.texts)
    if table.text_pairs is None:
        return keys.to_pylist()
    tab = pa.scalar("\t", pa.large_string())
    return pc.binary_join_element_wise(keys, _collapsed(table.text_pairs), tab).to_pylist()


def normalised_texts(texts: Sequence[str]) -> list[str]:
    """Texts in lower case with whitespace collapsed (what exact duplicates compare).

    Examples:
        >>> normalised_texts(["  So\tBAD ", "fine"])
        ['so bad', 'fine']
    """
    return _collapsed(texts).to_pylist()


@dataclass
class Shingles:
    """Every row's word shingles as integer codes: row ``i`` holds
    ``codes[offsets[i]:offsets[i + 1]]``; code ``c`` stands for the shingle ``vocabulary[c]``.
    Two tables coded together share the vocabulary, so equal codes are equal shingles."""

    codes: np.ndarray
    offsets: np.ndarray
    vocabulary: pa.Array

    def __len__(self) -> int:
        return len(self.offsets) - 1

    def row(self, index: int) -> np.ndarray:
        return self.codes[self.offsets[index] : self.offsets[index + 1]]

    def sets(self) -> list[frozenset[str]]:
        """The rows' shingles as strings (for reading; the search works on the codes)."""
        words = self.vocabulary.to_pylist()
        return [frozenset(words[c] for c in self.row(i)) for i in range(len(self))]


def shingle_tables(*tables: AuditInputs) -> list[Shingles]:
    """The word shingles of each table's rows, coded over one vocabulary: word triples, or words
    and word pairs for a text of fewer than :data:`SHORT_TEXT_WORDS` words; for pairs, both
    parts' shingles, marked with the part (``1|``, ``2|``).

    Examples:
        >>> one = AuditInputs(np.arange(2), ["Hi there, you!", "a b c d e"], np.array([0, 1]), LabelSpace((0, 1)))
        >>> [sorted(s) for s in shingle_tables(one)[0].sets()]
        [['hi', 'hi there', 'there', 'there you', 'you'], ['a b c', 'b c d', 'c d e']]
    """
    strings, rows, sizes = [], [], []
    for table in tables:
        parts = [table.texts] if table.text_pairs is None else [table.texts, table.text_pairs]
        first_row = sum(sizes)
        for number, texts in enumerate(parts, start=1):
            shingles, row = _part_shingles(texts)
            if len(parts) > 1:
                marker = pa.scalar(f"{number}|", pa.large_string())
                empty = pa.scalar("", pa.large_string())
                shingles = pc.binary_join_element_wise(marker, shingles, empty)
            strings.append(shingles)
            rows.append(row + first_row)
        sizes.append(len(table))
    encoded = pc.dictionary_encode(pa.concat_arrays(strings))
    codes = encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64)
    all_rows = np.concatenate(rows) if rows else np.zeros(0, np.int64)
    order = np.argsort(all_rows, kind="stable")
    codes, all_rows = codes[order], all_rows[order]
    result, first_row = [], 0
    for size in sizes:
        bounds = np.searchsorted(all_rows, np.arange(first_row, first_row + size + 1))
        result.append(
            Shingles(codes[bounds[0] : bounds[-1]], bounds - bounds[0], encoded.dictionary)
        )
        first_row += size
    return result


def minhash_signatures(shingles: Shingles, *, num_perm: int, seed: int) -> np.ndarray:
    """(rows × num_perm) uint32 MinHash signatures, equal to datasketch's ``MinHash(num_perm,
    seed)`` (scheme ``affine32``, SHA-1 of the UTF-8 shingle) updated with each row's shingles.

    datasketch's :meth:`MinHash.bulk` spends ~0.2 ms of Python per document (measured on rows of
    two GoEmotions comments), 20 s for 100k rows; this hashes each distinct shingle once and
    applies the same permutations to a batch of shingles at once. Rows with no shingle keep
    datasketch's empty value (all bits set).
    """
    a, b = MinHash(num_perm=num_perm, seed=seed, scheme=_SCHEME).permutations
    vocabulary_hashes = _fmix32(
        np.fromiter(
            (_sha1_32(word) for word in shingles.vocabulary.to_pylist()),
            dtype=np.uint32,
            count=len(shingles.vocabulary),
        )
    )
    hashes = vocabulary_hashes[shingles.codes]
    starts, counts = shingles.offsets[:-1], np.diff(shingles.offsets)
    signatures = np.full((num_perm, len(shingles)), np.iinfo(np.uint32).max, dtype=np.uint32)
    row = 0
    while row < len(shingles):
        # rows whose shingles fit one batch (at least one row, however many shingles it has)
        end = max(
            int(np.searchsorted(starts, starts[row] + _BATCH_SHINGLES, side="right")), row + 1
        )
        filled = np.flatnonzero(counts[row:end]) + row
        if len(filled):
            low, high = starts[row], shingles.offsets[end]
            # permutations × shingles: the min over each row's columns is contiguous in memory
            permuted = a[:, None] * hashes[None, low:high]  # wraps mod 2**32, as datasketch's
            permuted += b[:, None]
            signatures[:, filled] = np.minimum.reduceat(permuted, starts[filled] - low, axis=1)
        row = end
    return np.ascontiguousarray(signatures.T)


def _near_pairs(
    train: AuditInputs,
    test: AuditInputs,
    skip_test_rows: set[int],
    *,
    threshold: float,
    num_perm: int,
    seed: int,
) -> list[DuplicatePair]:
    train_shingles, test_shingles = shingle_tables(train, test)
    train_rows = np.flatnonzero(np.diff(train_shingles.offsets))
    test_rows = np.array(
        [
            row
            for row in np.flatnonzero(np.diff(test_shingles.offsets))
            if row not in skip_test_rows
        ],
        dtype=np.int64,
    )
    candidates = _lsh_candidates(
        minhash_signatures(train_shingles, num_perm=num_perm, seed=seed)[train_rows],
        minhash_signatures(test_shingles, num_perm=num_perm, seed=seed)[test_rows],
        threshold=threshold,
        seed=seed,
    )
    train_sets: dict[int, set[int]] = {}
    pairs = []
    for test_index, train_indices in sorted(candidates.items()):
        test_row = int(test_rows[test_index])
        shingles = set(test_shingles.row(test_row).tolist())
        best: tuple[float, bool, int] | None = None
        for train_row in sorted(int(train_rows[i]) for i in train_indices):
            if train_row not in train_sets:
                train_sets[train_row] = set(train_shingles.row(train_row).tolist())
            other = train_sets[train_row]
            similarity = len(shingles & other) / len(shingles | other)
            if similarity < threshold:
                continue
            same_label = bool(train.ranks[train_row] == test.ranks[test_row])
            # the most similar row, then one with the test row's label, then the earliest
            if best is None or (similarity, same_label) > best[:2]:
                best = (similarity, same_label, train_row)
        if best is not None:
            pairs.append(_pair(best[2], test_row, best[0], False, train.ranks, test.ranks))
    return pairs


def _lsh_candidates(
    train_signatures: np.ndarray, test_signatures: np.ndarray, *, threshold: float, seed: int
) -> dict[int, list[int]]:
    """LSH hits as {test index: [train indices]}. The smaller side is indexed and the other
    queries it: a row pair shares a band either way, and an insert costs more than a query."""
    index_train = len(train_signatures) <= len(test_signatures)
    indexed, queries = (
        (train_signatures, test_signatures) if index_train else (test_signatures, train_signatures)
    )
    lsh = MinHashLSH(threshold=threshold, num_perm=train_signatures.shape[1], weights=LSH_WEIGHTS)
    with lsh.insertion_session() as session:
        for key, signature in enumerate(indexed):
            session.insert(key, _lean(signature, seed), check_duplication=False)
    hits: dict[int, list[int]] = defaultdict(list)
    for query, signature in enumerate(queries):
        for key in lsh.query(_lean(signature, seed)):
            if index_train:
                hits[query].append(key)
            else:
                hits[key].append(query)
    return hits


def _exact_pairs(
    by_key: dict[str, list[int]],
    test_keys: list[str],
    train_ranks: np.ndarray,
    test_ranks: np.ndarray,
) -> list[DuplicatePair]:
    pairs = []
    for test_row, key in enumerate(test_keys):
        copies = by_key.get(key)
        if not copies:
            continue
        same = [row for row in copies if train_ranks[row] == test_ranks[test_row]]
        partner = same[0] if same else copies[0]
        pairs.append(_pair(partner, test_row, 1.0, True, train_ranks, test_ranks))
    return pairs


def _train_conflicts(groups: Any, ranks: np.ndarray) -> tuple[list[tuple[int, int]], int]:
    """Pairs each row of a text with mixed labels with the group's first row of another label
    (every such row appears, and the pairs stay linear in the group's size)."""
    conflicts: set[tuple[int, int]] = set()
    repeats = 0
    for rows in groups:
        repeats += len(rows) - 1
        if len(rows) < 2 or len({int(ranks[row]) for row in rows}) < 2:
            continue
        first_of_label: dict[int, int] = {}
        for row in rows:
            first_of_label.setdefault(int(ranks[row]), row)
        for row in rows:
            partner = min(r for label, r in first_of_label.items() if label != ranks[row])
            conflicts.add((min(row, partner), max(row, partner)))
    return sorted(conflicts), repeats


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


def _collapsed(texts: Sequence[str]) -> pa.Array:
    # split and join: 2.5x faster than an RE2 replacement of \s+ (measured on 100k rows)
    array = pc.utf8_trim_whitespace(pc.utf8_lower(pa.array(list(texts), type=pa.large_string())))
    words = pc.utf8_split_whitespace(array)
    return pc.binary_join(words, pa.scalar(" ", pa.large_string()))


def _part_shingles(texts: Sequence[str]) -> tuple[pa.Array, np.ndarray]:
    """All shingles of one part and the row each belongs to, built with Arrow kernels."""
    # Words keep their apostrophes: "doesn't work" and "works" must stay different texts.
    array = pc.utf8_lower(pa.array(list(texts), type=pa.large_string()))
    array = pc.utf8_trim(pc.replace_substring_regex(array, r"[^\p{L}\p{N}']+", " "), " ")
    lists = pc.split_pattern(array, " ")
    words = pc.list_flatten(lists)
    row_of = np.repeat(
        np.arange(len(texts)), pc.list_value_length(lists).to_numpy(zero_copy_only=False)
    )
    kept = pc.not_equal(words, "").to_numpy(zero_copy_only=False)
    words, row_of = words.filter(pa.array(kept)), row_of[kept]
    counts = np.bincount(row_of, minlength=len(texts))
    position = np.arange(len(row_of)) - (np.cumsum(counts) - counts)[row_of]
    left = counts[row_of] - position  # words from this one to the end of its row
    short = counts[row_of] < SHORT_TEXT_WORDS
    space = pa.scalar(" ", pa.large_string())
    following = [
        pa.concat_arrays([words[shift:], pa.array([""] * shift, pa.large_string())])
        for shift in (1, 2)
    ]
    pairs = pc.binary_join_element_wise(words, following[0], space)
    triples = pc.binary_join_element_wise(pairs, following[1], space)
    chosen = [(triples, ~short & (left >= 3)), (words, short), (pairs, short & (left >= 2))]
    shingles = pa.concat_arrays([values.filter(pa.array(mask)) for values, mask in chosen])
    return shingles, np.concatenate([row_of[mask] for _, mask in chosen])


def _sha1_32(shingle: str) -> int:
    """datasketch.hashfunc.sha1_hash32."""
    return int.from_bytes(hashlib.sha1(shingle.encode("utf-8")).digest()[:4], "little")


def _fmix32(values: np.ndarray) -> np.ndarray:
    """The MurmurHash3 finalizer datasketch's affine32 scheme applies before permuting."""
    values = values ^ (values >> np.uint32(16))
    values = values * np.uint32(0x85EBCA6B)
    values = values ^ (values >> np.uint32(13))
    values = values * np.uint32(0xC2B2AE35)
    return values ^ (values >> np.uint32(16))


def _lean(signature: np.ndarray, seed: int) -> LeanMinHash:
    return LeanMinHash(seed=seed, hashvalues=signature, scheme=_SCHEME)


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
        "text": table.texts[row],
        "label": _plain(values[int(table.ranks[row])]),
    }
    if table.text_pairs is not None:
        entry["text_pair"] = table.text_pairs[row]
    return entry


def _plain(value: Any) -> Any:
    return value.item() if hasattr(value, "item") else value
