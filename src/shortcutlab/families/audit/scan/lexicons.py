"""Word lists as indicators: a row "has" a lexicon when any of its phrases occurs as whole words.

The packaged lists are the ones the injected shortcuts draw from (countries and cities of the
category shortcut; the synonym shortcut's discourse markers, paper 001 table 1) plus common hedges,
so an audit of a data set built with those shortcuts — or of one where people happen to write
"honestly" more under one label — finds the list. Users add their own (one phrase per line).

Matching uses the whole-word view of :mod:`shortcutlab.attributes.words`: lower case, clitics cut
off ("if I'm being honest" reads as "if i being honest" on both sides), every list one RE2 pass.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from shortcutlab.attributes.words import spaced_phrases
from shortcutlab.errors import DataError
from shortcutlab.params import PATH_LIMIT, quoted
from shortcutlab.shortcuts.occurrence import PAPER_SYNONYMS
from shortcutlab.shortcuts.template_names import load_name_list

#: Hedges and discourse markers beyond the synonym shortcut's list.
COMMON_MARKERS = (
    "frankly",
    "to be honest",
    "actually",
    "basically",
    "literally",
    "seriously",
    "truly",
    "really",
    "obviously",
    "clearly",
    "of course",
    "in fact",
    "anyway",
    "i mean",
    "you know",
    "kind of",
    "sort of",
    "i guess",
    "i think",
    "i believe",
    "apparently",
    "definitely",
    "personally",
    "to be fair",
    "tbh",
    "imo",
    "imho",
)


def packaged_lexicons() -> dict[str, list[str]]:
    """The packaged lists: ``countries``, ``cities``, ``candour-markers`` (phrases that announce
    sincerity, the synonym shortcut's list) and ``discourse-markers`` (other hedges and fillers).

    Candour markers are kept apart from the other markers: words such as "really" and "i think"
    are common in reviews and comments, and one list holding both would let them swamp the rows
    where a sincerity phrase tracks the label.

    Examples:
        >>> lists = packaged_lexicons()
        >>> sorted(lists), "honestly" in lists["discourse-markers"], len(lists["countries"]) > 100
        (['candour-markers', 'cities', 'countries', 'discourse-markers'], False, True)
    """

    def union(stem: str) -> list[str]:
        return list(
            dict.fromkeys([*load_name_list(f"{stem}_train"), *load_name_list(f"{stem}_test")])
        )

    candour = list(dict.fromkeys(PAPER_SYNONYMS))
    return {
        "countries": union("countries"),
        "cities": union("cities"),
        "candour-markers": candour,
        "discourse-markers": [m for m in dict.fromkeys(COMMON_MARKERS) if m not in candour],
    }


def read_lexicon(name: str, path: str | Path) -> list[str]:
    """A user's list from a UTF-8 file, one phrase per line (blank lines and ``#`` lines skipped)."""
    file = Path(path)
    try:
        lines = file.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(
            f"Lexicon {quoted(name)}: cannot read {quoted(str(file), PATH_LIMIT)} ({exc.__class__.__name__}); give a UTF-8 text file with one phrase per line."
        ) from exc
    phrases = [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]
    if not phrases:
        raise DataError(
            f"Lexicon {quoted(name)}: {quoted(str(file), PATH_LIMIT)} holds no phrase; write one phrase per line."
        )
    return phrases


class LexiconMatcher:
    """One RE2 pattern per list over the spaced-word view of the texts.

    Examples:
        >>> from shortcutlab.attributes.words import spaced_words
        >>> matcher = LexiconMatcher({"hedges": ["to be honest", "frankly"]})
        >>> matcher.matrix(spaced_words(["To be honest, no.", "be honest", "FRANKLY!"])).tolist()
        [[True], [False], [True]]
    """

    def __init__(self, lexicons: Mapping[str, Sequence[str]]) -> None:
        self.names = list(lexicons)
        self.entries = {name: [str(p) for p in phrases] for name, phrases in lexicons.items()}
        self._patterns: list[str | None] = []
        for name in self.names:
            spaced = sorted(
                {p for p in spaced_phrases(self.entries[name]) if p}, key=len, reverse=True
            )
            self._patterns.append("|".join(re.escape(p) for p in spaced) or None)

    def matrix(self, spaced: pa.Array) -> np.ndarray:
        """(rows, lists) boolean: the row's spaced words hold an entry of the list."""
        out = np.zeros((len(spaced), len(self.names)), dtype=bool)
        for column, pattern in enumerate(self._patterns):
            if pattern is not None:
                found = pc.match_substring_regex(spaced, pattern)
                out[:, column] = found.to_numpy(zero_copy_only=False).astype(bool)
        return out

    def config(self) -> dict[str, dict[str, int]]:
        return {name: {"entries": len(self.entries[name])} for name in self.names}


class PhraseTrie:
    """Word lists matched on word ids, as :class:`LexiconMatcher` matches them on the spaced
    texts: every list's phrases (word id sequences) in one trie, walked a word at a time from
    every word position of the rows at once (the positions still inside a phrase go on).

    Examples:
        >>> trie = PhraseTrie([[[1, 2], [3]], [[2]]])
        >>> ids, rows = np.array([1, 2, 5, 3, 1]), np.array([0, 0, 1, 2, 2])
        >>> trie.matrix(ids, rows, 3).tolist()
        [[True, True], [False, False], [True, False]]
    """

    def __init__(self, lists: Sequence[Sequence[Sequence[int]]]) -> None:
        children: dict[tuple[int, int], int] = {}
        ends: list[list[bool]] = [[False] * len(lists)]
        for column, phrases in enumerate(lists):
            for phrase in phrases:
                node = 0
                for word in phrase:
                    node = children.setdefault((node, int(word)), len(ends))
                    if node == len(ends):
                        ends.append([False] * len(lists))
                ends[node][column] = node > 0
        codes = np.array([(node << 32) | word for node, word in children], dtype=np.int64)
        order = np.argsort(codes)
        self.codes = codes[order]
        self.children = np.array(list(children.values()), dtype=np.int64)[order]
        self.ends = np.array(ends, dtype=bool).reshape(len(ends), len(lists))
        # The first step, from every position, looks its word up in an array, not a search.
        firsts = {word: child for (node, word), child in children.items() if node == 0}
        self.first = np.full(max(firsts, default=-1) + 2, -1, dtype=np.int64)
        self.first[list(firsts)] = list(firsts.values())

    def matrix(self, ids: np.ndarray, rows: np.ndarray, texts: int) -> np.ndarray:
        """(texts, lists) boolean from every word position's id and row (in reading order): the
        text holds a phrase of the list as adjacent words."""
        found = np.zeros((texts, self.ends.shape[1]), dtype=bool)
        beyond = len(self.first) - 1  # no list starts with a word numbered this high
        node = self.first[np.minimum(ids, beyond)]
        start = np.flatnonzero(node >= 0)
        node = node[start]
        depth = 0
        while True:
            inside = node >= 0
            start, node = start[inside], node[inside]
            if not len(start):
                return found
            for column in np.flatnonzero(self.ends[node].any(axis=0)).tolist():
                found[rows[start[self.ends[node, column]]], column] = True
            depth += 1
            going = start + depth < len(ids)
            start, node = start[going], node[going]
            going = rows[start + depth] == rows[start]  # a phrase lies within one text
            start, node = start[going], node[going]
            node = self._child(node, ids[start + depth])

    def _child(self, nodes: np.ndarray, words: np.ndarray) -> np.ndarray:
        """Each (node, word)'s child node, -1 where the trie has none."""
        if not len(self.codes):
            return np.full(len(nodes), -1, dtype=np.int64)
        codes = (nodes.astype(np.int64) << 32) | words.astype(np.int64)
        at = np.minimum(np.searchsorted(self.codes, codes), len(self.codes) - 1)
        return np.where(self.codes[at] == codes, self.children[at], -1)
