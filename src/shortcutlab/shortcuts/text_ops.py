"""Fast text edits shared by the injectors: find sentence starts, insert, remove phrases.

Throughput matters (benchmarks are rebuilt for every strength and shortcut), so the scans run once
over all rows joined by a NUL separator, which keeps the per-row Python work to the rows that
actually change.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from shortcutlab.casing import capitalize_first

SEP = "\x00"
# A sentence starts after terminal punctuation (with closing quotes/brackets) and whitespace, or
# after a line break. The separator is never part of a match, so rows do not leak into each other.
_BOUNDARY = re.compile(r"(?:[.!?\u2026]+[\"'\u201d\u2019)\]]*[^\S\x00]+|\n[^\S\x00]*)(?=[^\s\x00])")
# The same boundary in RE2 syntax for Arrow: no lookahead, and Python's Unicode \s spelled out.
_WHITESPACE_CHARS = "".join(c for c in map(chr, range(0x3001)) if c.isspace())
_WHITESPACE = "".join(f"\\x{{{ord(c):x}}}" for c in _WHITESPACE_CHARS)
_BOUNDARY_RE2 = (
    "(?:[.!?\\x{2026}]+[\"'\\x{201d}\\x{2019})\\]]*["
    + _WHITESPACE
    + "]+|\\n["
    + _WHITESPACE
    + "]*)"
)
_SENTENCE_END = re.compile(r"(?:^|[.!?\u2026]+[\"'\u201d\u2019)\]]*|\n)\s*$")
_PUNCTUATION_AFTER = ".!?\u2026;:)"


def _joined(texts: Sequence[str]) -> tuple[str, np.ndarray] | None:
    joined = SEP.join(texts)
    if joined.count(SEP) != max(len(texts) - 1, 0):
        return None  # a text contains the separator itself: callers fall back to per-row scans
    lengths = np.fromiter((len(t) for t in texts), dtype=np.int64, count=len(texts))
    starts = np.zeros(len(texts), dtype=np.int64)
    if len(texts) > 1:
        starts[1:] = np.cumsum(lengths[:-1] + 1)
    return joined, starts


def sentence_starts(texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """Offsets where sentences start, as a CSR pair ``(offsets, row_pointer)``.

    Row ``i``'s starts are ``offsets[row_pointer[i]:row_pointer[i + 1]]``; every row has at least
    one (its first non-space character, or 0 for an empty text).

    Examples:
        >>> offsets, pointer = sentence_starts(["Good. Bad!  Ugly", "One"])
        >>> offsets.tolist(), pointer.tolist()
        ([0, 6, 12, 0], [0, 3, 4])
    """
    n = len(texts)
    leads = np.fromiter((len(t) - len(t.lstrip()) if t.strip() else 0 for t in texts), np.int64, n)
    packed = _joined(texts)
    if packed is None:
        rows_list, local_list = [], []
        for i, text in enumerate(texts):
            for match in _BOUNDARY.finditer(text):
                rows_list.append(i)
                local_list.append(match.end())
        rows = np.asarray(rows_list, dtype=np.int64)
        local = np.asarray(local_list, dtype=np.int64)
    else:
        joined, row_start = packed
        ends = np.fromiter((m.end() for m in _BOUNDARY.finditer(joined)), dtype=np.int64)
        rows = np.searchsorted(row_start, ends, side="right") - 1
        local = ends - row_start[rows]
    all_rows = np.concatenate([np.arange(n, dtype=np.int64), rows])
    all_local = np.concatenate([leads, local])
    order = np.lexsort((all_local, all_rows))
    all_rows, all_local = all_rows[order], all_local[order]
    keep = np.ones(len(all_rows), dtype=bool)
    keep[1:] = (all_rows[1:] != all_rows[:-1]) | (all_local[1:] != all_local[:-1])
    all_rows, all_local = all_rows[keep], all_local[keep]
    pointer = np.zeros(n + 1, dtype=np.int64)
    pointer[1:] = np.cumsum(np.bincount(all_rows, minlength=n))
    return all_local, pointer


def random_sentence_starts(texts: Sequence[str], uniforms: np.ndarray) -> np.ndarray:
    """Pick one sentence start per row; ``uniforms`` in [0, 1) choose among the row's starts.

    The same choice as indexing :func:`sentence_starts` with ``uniforms``, computed faster: Arrow's
    RE2 counts each row's sentence boundaries, and Python looks for a boundary's offset only in
    the rows whose choice is not their first sentence.

    Examples:
        >>> random_sentence_starts(["Good. Bad!  Ugly", "One", "\\n Two"], np.array([0.99, 0.5, 0.9])).tolist()
        [12, 0, 2]
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    if not len(texts):
        return np.zeros(0, dtype=np.int64)
    array = pa.array(texts, pa.string())
    # A boundary at the very end of a text starts no sentence (the lookahead of _BOUNDARY).
    counts = pc.count_substring_regex(array, _BOUNDARY_RE2).to_numpy().astype(np.int64)
    counts -= pc.match_substring_regex(array, f"(?:{_BOUNDARY_RE2})$").to_numpy(
        zero_copy_only=False
    )
    stripped = pc.utf8_ltrim(array, characters=_WHITESPACE_CHARS)
    blank = pc.equal(pc.utf8_length(stripped), 0).to_numpy(zero_copy_only=False)
    leads = pc.subtract(pc.utf8_length(array), pc.utf8_length(stripped)).to_numpy()
    leads = np.where(blank, 0, leads).astype(np.int64)
    # A line break in the leading white space makes a boundary that ends at the first
    # character: the same start as the text's own, counted once.
    repeated = (
        pc.match_substring_regex(array, f"^[{_WHITESPACE}]*\\n").to_numpy(zero_copy_only=False)
        & ~blank
    )
    starts = 1 + counts - repeated
    choice = np.minimum((uniforms * starts).astype(np.int64), starts - 1)
    positions = leads.copy()
    nth = choice + repeated
    later = np.flatnonzero(choice > 0)
    for k in np.unique(nth[later]).tolist():
        rows = later[nth[later] == k]
        # Split at the first k boundaries: what follows the last one starts sentence k + 1.
        chosen = array.take(pa.array(rows))
        pieces = pc.split_pattern_regex(chosen, _BOUNDARY_RE2, max_splits=k)
        rest = pc.utf8_length(pc.list_flatten(pieces)).to_numpy()[pieces.offsets.to_numpy()[1:] - 1]
        positions[rows] = pc.utf8_length(chosen).to_numpy() - rest
    return positions


def insert_at(
    texts: Sequence[str], rows: np.ndarray, positions: np.ndarray, inserts: Sequence[str]
) -> list[str]:
    """Return a copy of ``texts`` with ``inserts[j]`` placed at ``positions[j]`` of row ``rows[j]``."""
    out = list(texts)
    for row, pos, piece in zip(rows.tolist(), positions.tolist(), inserts, strict=True):
        text = out[row]
        out[row] = text[:pos] + piece + text[pos:] if text else piece.rstrip()
    return out


def phrase_pattern(phrases: Sequence[str]) -> str:
    """A regex matching any of ``phrases`` as whole words, any case, straight or curly apostrophes."""
    escaped = sorted((re.escape(p.strip()) for p in phrases if p.strip()), key=len, reverse=True)
    alternation = "|".join(e.replace("'", "['\u2019]").replace("\\ ", r"\s+") for e in escaped)
    return rf"(?<![\w'\u2019-])(?:{alternation})(?![\w'\u2019-])"


class PatternRemover:
    """Remove every match of a pattern from texts and tidy the commas and spaces it leaves.

    ``needles`` are lower-case literals that every match contains; they prefilter rows at C speed.

    Examples:
        >>> remove = PatternRemover(phrase_pattern(["honestly", "to be honest"]), ["honest"])
        >>> remove(["Honestly, the food was cold.", "It was fine, to be honest.", "I honestly liked it."])
        (['The food was cold.', 'It was fine.', 'I liked it.'], array([1, 1, 1]))
    """

    def __init__(self, pattern: str, needles: Sequence[str]) -> None:
        self.regex = re.compile(pattern, re.IGNORECASE)
        self.needles = [n.lower() for n in needles if n]

    def candidate_rows(self, texts: Sequence[str]) -> np.ndarray:
        packed = _joined(texts)
        if packed is None or not self.needles:
            return np.arange(len(texts))
        joined, row_start = packed
        lowered = joined.lower()
        if len(lowered) != len(joined):  # a few characters change length when lower-cased
            lowered_rows = [t.lower() for t in texts]
            return np.flatnonzero([any(n in t for n in self.needles) for t in lowered_rows])
        hits: list[int] = []
        for needle in self.needles:
            at = lowered.find(needle)
            while at != -1:
                hits.append(at)
                at = lowered.find(needle, at + 1)
        if not hits:
            return np.zeros(0, dtype=np.int64)
        return np.unique(np.searchsorted(row_start, np.asarray(hits), side="right") - 1)

    def __call__(self, texts: Sequence[str]) -> tuple[list[str], np.ndarray]:
        """Return the cleaned texts and the number of matches removed from each row."""
        out = list(texts)
        counts = np.zeros(len(texts), dtype=np.int64)
        for row in self.candidate_rows(texts).tolist():
            out[row], counts[row] = self.remove_from(out[row])
        return out, counts

    def remove_from(self, text: str) -> tuple[str, int]:
        pieces: list[str] = []
        pos = count = 0
        capitalize_next = False
        n = len(text)
        for match in self.regex.finditer(text):
            start, end = match.span()
            if start < pos:
                continue
            prefix = capitalize_first(text[pos:start]) if capitalize_next else text[pos:start]
            capitalize_next = False
            left = prefix.rstrip(" \t")
            spaces = prefix[len(left) :]
            at_sentence_start = bool(_SENTENCE_END.search("".join(pieces) + left))
            k = _skip_spaces(text, end)
            count += 1
            if k < n and text[k] == ",":  # "Honestly, the food" / "Well, honestly, it"
                pieces.append(left + spaces)
                pos = _skip_spaces(text, k + 1)
                capitalize_next = at_sentence_start and match.group()[:1].isupper()
            elif k >= n or text[k] in _PUNCTUATION_AFTER:
                if at_sentence_start:  # a sentence of its own: "Great. Honestly. Loved it."
                    k = _skip_spaces(text, _skip_chars(text, k, ".!?\u2026"))
                    pieces.append(left + (spaces if k < n else ""))
                else:  # "It was great, honestly." -> "It was great."
                    pieces.append(left.rstrip(",").rstrip(" \t"))
                pos = k
            else:  # "I honestly think" -> "I think"
                pieces.append(left + spaces if left else left)
                pos = k
                capitalize_next = at_sentence_start and match.group()[:1].isupper()
        if count == 0:
            return text, 0
        tail = text[pos:]
        pieces.append(capitalize_first(tail) if capitalize_next else tail)
        return "".join(pieces).strip(), count


def _skip_spaces(text: str, i: int) -> int:
    return _skip_chars(text, i, " \t")


def _skip_chars(text: str, i: int, chars: str) -> int:
    while i < len(text) and text[i] in chars:
        i += 1
    return i
