"""The audit's word and n-gram vocabulary in one streamed pass, pruned to ``min_support`` as it goes.

The texts are tokenised in chunks into integer ids (each chunk's distinct words joined to one
running dictionary), so no per-occurrence string outlives its chunk. Document frequencies are then
counted with numpy, one n-gram length at a time, and only over n-grams whose two (n-1)-grams (the
first n-1 words and the last n-1 words) already reached ``min_support``: every row with the n-gram
has both, so no n-gram that could reach ``min_support`` is skipped, and the long tail of rare
bigrams is never counted. The result is the vocabulary and binary matrix that scikit-learn's
``CountVectorizer(binary=True, ngram_range=(1, n))`` gives after keeping the columns with
``min_support`` rows: the same words (the same ``findall`` of the same pattern), the same
alphabetical column order, counts in int32.

Examples:
    >>> names, matrix = frequent_ngrams(["a b c", "a b", "b c a"], ngram_max=2, min_support=2)
    >>> names, matrix.toarray().tolist()
    (['a', 'a b', 'b', 'b c', 'c'], [[1, 1, 1, 1, 1], [1, 1, 1, 0, 0], [1, 0, 1, 1, 1]])
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import scipy.sparse as sp

from shortcutlab.families.audit.columns import join_indicator_blocks
from shortcutlab.families.audit.memory import release_freed_memory
from shortcutlab.families.audit.tokens import TOKEN_PATTERN, arrow_words_agree, words

#: Called with each chunk's first row and its words (see :func:`frequent_ngrams`).
WordsSink = Callable[[int, pa.ListArray], None]
#: Makes a chunk of the texts into what is tokenised (see :func:`frequent_ngrams`).
ChunkPreparer = Callable[[pa.Array], pa.Array]
#: Texts tokenised per chunk: their words live as Python strings only while the chunk is encoded.
CHUNK_ROWS = 16_384
#: Matrix entries renumbered at once (a copy of all of them would raise the peak).
CHUNK_ENTRIES = 1 << 20


def frequent_ngrams(
    texts: Sequence[str] | pa.Array,
    *,
    ngram_max: int,
    min_support: int,
    max_features: int | None = None,
    token_pattern: str = TOKEN_PATTERN,
    on_words: WordsSink | None = None,
    prepare: ChunkPreparer | None = None,
    breaks: Collection[str] = (),
) -> tuple[list[str], sp.csr_matrix]:
    """The 1..``ngram_max``-grams (words joined by one space) in at least ``min_support`` of the
    ``texts``, sorted, and the binary (texts × n-grams) int32 matrix of which text has which.

    With ``max_features``, the most supported ones (equal support: alphabetical order) are kept.
    ``on_words(start, words)`` is handed each chunk's words (a list array, from row ``start``)
    where Arrow's kernels read them (:func:`~shortcutlab.families.audit.tokens.words`). With
    ``prepare``, each chunk of ``texts`` is ``prepare(chunk)`` before it is tokenised (so no
    prepared copy of all the texts is held). Words in ``breaks`` are no n-gram and no part of
    one: they mark where a word was cut out, so an n-gram is made of adjacent words only."""
    names, support, levels = _counted_levels(
        texts, ngram_max, min_support, token_pattern, on_words, prepare, breaks
    )
    release_freed_memory()
    # The positions' arrays of the pass are gone by now: only the kept columns reach the sort.
    return _sorted_columns(names, support, levels, max_features)


def _counted_levels(
    texts: Sequence[str] | pa.Array,
    ngram_max: int,
    min_support: int,
    token_pattern: str,
    on_words: WordsSink | None,
    prepare: ChunkPreparer | None = None,
    breaks: Collection[str] = (),
) -> tuple[list[str], np.ndarray, list[sp.csr_matrix]]:
    """Per n-gram length, the n-grams with ``min_support`` rows: names (in the order found),
    supports and the (texts × kept n-grams) counts."""
    ids, rows, words = _token_ids(texts, token_pattern, on_words, prepare)
    breaking = np.array([word in breaks for word in words], dtype=bool)
    n_rows = len(texts)
    names: list[str] = []
    supports: list[np.ndarray] = []
    levels: list[sp.csr_matrix] = []  # per n, the kept n-grams' columns

    def keep_level(codes: np.ndarray, valid: np.ndarray | None, name_of: Callable) -> np.ndarray:
        """Keep the level's codes with ``min_support`` rows; per position, the kept n-gram's
        index within the level (-1 where none). With ``valid``, ``codes`` are those of the valid
        positions alone; without, every position holds one and the codes are already 0.. (the
        word ids)."""
        if valid is None:
            inverse, distinct, at = codes, np.arange(len(words)), rows
        else:
            found, distinct = pd.factorize(codes)  # the candidates' codes alone
            inverse, at = found.astype(np.int32), rows[valid]
            del found
        # The (row, code) pairs as a CSR matrix straight from the row-ordered positions: the
        # duplicates within a row are summed where the row's few entries are sorted, much
        # cheaper than a sort or hash of all pairs.
        indptr = np.zeros(n_rows + 1, dtype=np.int64)
        np.cumsum(np.bincount(at, minlength=n_rows), out=indptr[1:])
        counted = sp.csr_matrix(
            (np.ones(len(inverse), dtype=np.int32), inverse, indptr),
            shape=(n_rows, len(distinct)),
            copy=True,  # summing sorts the indices in place; ``inverse`` is read below
        )
        counted.sum_duplicates()
        support = np.bincount(counted.indices, minlength=len(distinct))
        enough = support >= min_support
        if valid is None:  # a break is no word: no n-gram is made across it
            enough &= ~breaking
        kept = np.flatnonzero(enough)
        index = np.full(len(distinct), -1, dtype=np.int32)
        index[kept] = np.arange(len(kept), dtype=np.int32)
        if valid is None:
            local = index[inverse]
        else:
            local = np.full(len(valid), -1, dtype=np.int32)
            local[valid] = index[inverse]
        levels.append(counted[:, kept])
        supports.append(support[kept])
        names.extend(name_of(code) for code in np.asarray(distinct)[kept].tolist())
        return local

    # Level 1: each position's word. Level n: the n-gram starting at each position, coded by its
    # first n-1 words (a kept (n-1)-gram) and its last word (a kept word).
    word_index = keep_level(ids, None, words.__getitem__)
    del ids  # each position's array is let go as soon as it is read (peak memory)
    kept_words = names[:]
    previous, previous_names = word_index, kept_words
    for n in range(2, ngram_max + 1):
        if not previous_names:
            break
        codes, valid = _longer_codes(previous, word_index, rows, n, len(kept_words))
        level_start = len(names)
        previous = keep_level(
            codes,
            valid,
            lambda code, heads=previous_names: (
                f"{heads[code // len(kept_words)]} {kept_words[code % len(kept_words)]}"
            ),
        )
        previous_names = names[level_start:]
        del codes, valid
    return names, np.concatenate(supports), levels


def _token_ids(
    texts: Sequence[str] | pa.Array,
    token_pattern: str,
    on_words: WordsSink | None = None,
    prepare: ChunkPreparer | None = None,
) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Every token of every text as (word id, row), in reading order, and the words by id."""
    if not isinstance(texts, pa.Array):
        texts = pa.array(list(texts), pa.large_string())
    pattern = re.compile(token_pattern)
    dictionary: dict[str, int] = {}
    id_chunks, row_chunks = [], []
    for start in range(0, len(texts), CHUNK_ROWS):
        chunk = texts[start : start + CHUNK_ROWS]
        chunk = chunk if prepare is None else prepare(chunk)
        # Per chunk: where Arrow's words agree with findall's, both read the same words.
        if token_pattern == TOKEN_PATTERN and arrow_words_agree(chunk):
            tokens = words(chunk)
            if on_words is not None:
                on_words(start, tokens)
        else:
            tokens = pa.array([pattern.findall(text) for text in chunk.to_pylist()])
        flat = pc.list_flatten(tokens).cast(pa.large_string())
        at = np.repeat(
            np.arange(start, start + len(chunk), dtype=np.int32),
            pc.list_value_length(tokens).to_numpy(zero_copy_only=False),
        )
        present = pc.not_equal(flat, "")  # a text with no word reads as one empty one
        encoded = pc.filter(flat, present).dictionary_encode()
        local_words = encoded.dictionary.to_pylist()
        to_global = np.array(
            [dictionary.setdefault(word, len(dictionary)) for word in local_words], dtype=np.int32
        )
        local = encoded.indices.to_numpy(zero_copy_only=False)
        id_chunks.append(to_global[local] if len(local) else np.zeros(0, dtype=np.int32))
        row_chunks.append(at[present.to_numpy(zero_copy_only=False)])
    # int32: a word id and a row number stay far below 2**31 (half the memory of int64).
    ids = np.concatenate(id_chunks) if id_chunks else np.zeros(0, dtype=np.int32)
    rows = np.concatenate(row_chunks) if row_chunks else np.zeros(0, dtype=np.int32)
    return ids, rows, list(dictionary)


def _longer_codes(
    previous: np.ndarray, last_word: np.ndarray, rows: np.ndarray, n: int, words: int
) -> tuple[np.ndarray, np.ndarray]:
    """Per position, whether an n-gram starting there is a candidate (inside one text, with both
    its (n-1)-grams frequent), and for the candidates alone, in order, a code for the n-gram (its
    first n-1 words as a frequent (n-1)-gram, and its last word). Only the candidates' codes are
    made, in the narrowest integer type that holds them, with no full-length temporaries (they
    were the scan's peak memory)."""
    size = len(previous)
    valid = np.zeros(size, dtype=bool)
    span = size - n + 1
    if span <= 0:
        return np.zeros(0, dtype=np.int64), valid
    head, tail = previous[:span], previous[1 : span + 1]
    valid[:span] = (head >= 0) & (tail >= 0) & (rows[:span] == rows[n - 1 :])
    wide = int(previous.max(initial=0)) * words + words >= 2**31
    codes = head[valid[:span]].astype(np.int64 if wide else np.int32)
    codes *= words
    codes += last_word[n - 1 :][valid[:span]]
    return codes, valid


def _sorted_columns(
    names: list[str], support: np.ndarray, levels: list[sp.csr_matrix], max_features: int | None
) -> tuple[list[str], sp.csr_matrix]:
    """The columns in alphabetical order (pruned to ``max_features``), binary."""
    order = sorted(range(len(names)), key=names.__getitem__)
    if max_features is not None and len(order) > max_features:
        # Most supported first; equal support keeps the vocabulary's alphabetical order.
        ranked = np.argsort(-support[order], kind="stable")[:max_features]
        order = [order[i] for i in np.sort(ranked).tolist()]
    # Side by side, each level let go once copied (the levels are emptied), before the columns
    # are reordered.
    matrix = join_indicator_blocks(levels, levels[0].shape[0])
    if len(order) == len(names):
        # Every column kept: renumber the entries' columns in place of a reordered copy.
        position = np.empty(len(names), dtype=np.int32)
        position[order] = np.arange(len(names), dtype=np.int32)
        for start in range(0, len(matrix.indices), CHUNK_ENTRIES):  # in place, a slice at a time
            entries = matrix.indices[start : start + CHUNK_ENTRIES]
            entries[:] = position[entries]
        matrix.has_sorted_indices = False
    else:
        matrix = matrix[:, order]
    matrix.data[:] = 1
    return [names[i] for i in order], matrix
