"""Near-duplicate search: which rows of one table have a text like a row of another, by the
Jaccard similarity of their word shingles (Broder, 1997).

Signatures are MinHash sketches computed with numpy in batches using datasketch's own
``affine32`` permutations, indexed in datasketch's :class:`~datasketch.MinHashLSH` as
:class:`~datasketch.LeanMinHash`; every hit is checked with the true Jaccard similarity of the
shingle sets, so no reported pair rests on the sketch alone. A table is anything with ``texts``
and, for pairs, ``text_pairs`` (:class:`TextRows`); the audit's leakage check is its user.

Examples:
    >>> reference = Texts(["the cat sat on the mat today", "something else entirely here"])
    >>> near_duplicates(reference, Texts(["the cat sat on the mat today!", "no match at all"]))
    {0: [(0, 1.0)]}
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from datasketch import LeanMinHash, MinHash, MinHashLSH

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


class TextRows(Protocol):
    """A table's texts: one per row, and the second texts of pairs (or None)."""

    texts: Sequence[str]
    text_pairs: Sequence[str] | None

    def __len__(self) -> int: ...


@dataclass
class Texts:
    """Plain texts as a :class:`TextRows` table (second texts optional)."""

    texts: Sequence[str]
    text_pairs: Sequence[str] | None = None

    def __len__(self) -> int:
        return len(self.texts)


def near_duplicates(
    reference: TextRows,
    queries: TextRows,
    *,
    skip_queries: Collection[int] = (),
    threshold: float = 0.8,
    num_perm: int = 128,
    seed: int = 0,
) -> dict[int, list[tuple[int, float]]]:
    """For each query row (in row order) with rows of ``reference`` whose shingles reach a
    Jaccard similarity of ``threshold``: those rows, in row order, with their similarity. Rows
    without shingles and the ``skip_queries`` rows are not searched. Deterministic for a ``seed``."""
    reference_shingles, query_shingles = shingle_tables(reference, queries)
    reference_rows = np.flatnonzero(np.diff(reference_shingles.offsets))
    query_rows = np.array(
        [row for row in np.flatnonzero(np.diff(query_shingles.offsets)) if row not in skip_queries],
        dtype=np.int64,
    )
    candidates = _lsh_candidates(
        minhash_signatures(reference_shingles, num_perm=num_perm, seed=seed)[reference_rows],
        minhash_signatures(query_shingles, num_perm=num_perm, seed=seed)[query_rows],
        threshold=threshold,
        seed=seed,
    )
    reference_sets: dict[int, set[int]] = {}
    found = {}
    for query_index, reference_indices in sorted(candidates.items()):
        query_row = int(query_rows[query_index])
        shingles = set(query_shingles.row(query_row).tolist())
        similar = []
        for row in sorted(int(reference_rows[i]) for i in reference_indices):
            if row not in reference_sets:
                reference_sets[row] = set(reference_shingles.row(row).tolist())
            other = reference_sets[row]
            similarity = len(shingles & other) / len(shingles | other)
            if similarity >= threshold:
                similar.append((row, similarity))
        if similar:
            found[query_row] = similar
    return found


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


def shingle_tables(*tables: TextRows) -> list[Shingles]:
    """The word shingles of each table's rows, coded over one vocabulary: word triples, or words
    and word pairs for a text of fewer than :data:`SHORT_TEXT_WORDS` words; for pairs, both
    parts' shingles, marked with the part (``1|``, ``2|``).

    Examples:
        >>> one = Texts(["Hi there, you!", "a b c d e"])
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


def _lsh_candidates(
    reference_signatures: np.ndarray, query_signatures: np.ndarray, *, threshold: float, seed: int
) -> dict[int, list[int]]:
    """LSH hits as {query index: [reference indices]}. The smaller side is indexed and the other
    queries it: a row pair shares a band either way, and an insert costs more than a query."""
    index_reference = len(reference_signatures) <= len(query_signatures)
    indexed, queries = (
        (reference_signatures, query_signatures)
        if index_reference
        else (query_signatures, reference_signatures)
    )
    num_perm = reference_signatures.shape[1]
    lsh = MinHashLSH(threshold=threshold, num_perm=num_perm, weights=LSH_WEIGHTS)
    with lsh.insertion_session() as session:
        for key, signature in enumerate(indexed):
            session.insert(key, _lean(signature, seed), check_duplication=False)
    hits: dict[int, list[int]] = defaultdict(list)
    for query, signature in enumerate(queries):
        for key in lsh.query(_lean(signature, seed)):
            if index_reference:
                hits[query].append(key)
            else:
                hits[key].append(query)
    return hits


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
