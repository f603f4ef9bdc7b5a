"""Fast text edits shared by the injectors: find sentence starts, insert, remove and tidy.

Throughput matters (benchmarks are rebuilt for every strength and shortcut), so the scans run once
over all rows (joined by a NUL separator, or as one UTF-8 buffer in :mod:`.scan`), which keeps the
per-row Python work to the rows that actually change.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from shortcutlab.casing import capitalize_first, lower_ordinary_opener
from shortcutlab.data.columns import int_array, numpy_of, string_array
from shortcutlab.shortcuts.scan import rows_containing

SEP = "\x00"
# A sentence starts after terminal punctuation (with closing quotes/brackets) and whitespace, or
# after a line break. The separator is never part of a match, so rows do not leak into each other.
_BOUNDARY = re.compile(r"(?:[.!?\u2026]+[\"'\u201d\u2019)\]]*[^\S\x00]+|\n[^\S\x00]*)(?=[^\s\x00])")
# The same boundary in RE2 syntax for Arrow: no lookahead, and Python's Unicode \s spelled out.
_WHITESPACE_CHARS = "".join(c for c in map(chr, range(0x3001)) if c.isspace())
# Python's white space as RE2 ranges (\x{9}-\x{d}...): Arrow compiles a pattern on every call,
# and ranges compile faster than the characters one by one.
RE2_WHITESPACE_RANGES = (
    "\\x{9}-\\x{d}\\x{1c}-\\x{20}\\x{85}\\x{a0}\\x{1680}\\x{2000}-\\x{200a}"
    "\\x{2028}-\\x{2029}\\x{202f}\\x{205f}\\x{3000}"
)
_BOUNDARY_RE2 = (
    "(?:[.!?\\x{2026}]+[\"'\\x{201d}\\x{2019})\\]]*["
    + RE2_WHITESPACE_RANGES
    + "]+|\\n["
    + RE2_WHITESPACE_RANGES
    + "]*)"
)


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
    return sentence_start_offsets(string_array(texts), uniforms)[0]


def sentence_start_offsets(array: Any, uniforms: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`random_sentence_starts` of an Arrow string array, in characters and in UTF-8 bytes."""
    import pyarrow.compute as pc

    if not len(array):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    # A boundary at the very end of a text starts no sentence (the lookahead of _BOUNDARY).
    counts = numpy_of(pc.count_substring_regex(array, _BOUNDARY_RE2)).astype(np.int64)
    counts -= numpy_of(pc.match_substring_regex(array, f"(?:{_BOUNDARY_RE2})$"))
    stripped = pc.utf8_ltrim(array, characters=_WHITESPACE_CHARS)
    stripped_lengths = numpy_of(pc.utf8_length(stripped))
    blank = stripped_lengths == 0
    leads = np.where(blank, 0, numpy_of(pc.utf8_length(array)) - stripped_lengths).astype(np.int64)
    lead_bytes = numpy_of(pc.binary_length(array)) - numpy_of(pc.binary_length(stripped))
    lead_bytes = np.where(blank, 0, lead_bytes).astype(np.int64)
    # A line break in the leading white space makes a boundary that ends at the first
    # character: the same start as the text's own, counted once.
    repeated = numpy_of(pc.match_substring_regex(array, f"^[{RE2_WHITESPACE_RANGES}]*\\n")) & ~blank
    starts = 1 + counts - repeated
    choice = np.minimum((uniforms * starts).astype(np.int64), starts - 1)
    positions, in_bytes = leads.copy(), lead_bytes.copy()
    nth = choice + repeated
    later = np.flatnonzero(choice > 0)
    for k in np.unique(nth[later]).tolist():
        rows = later[nth[later] == k]
        # Split at the first k boundaries: what follows the last one starts sentence k + 1.
        chosen = array.take(int_array(rows))
        pieces = pc.split_pattern_regex(chosen, _BOUNDARY_RE2, max_splits=k)
        last = numpy_of(pieces.offsets)[1:] - 1
        rest = pc.list_flatten(pieces)
        positions[rows] = numpy_of(pc.utf8_length(chosen)) - numpy_of(pc.utf8_length(rest))[last]
        in_bytes[rows] = numpy_of(pc.binary_length(chosen)) - numpy_of(pc.binary_length(rest))[last]
    return positions, in_bytes


def insert_at(
    texts: Sequence[str],
    rows: np.ndarray,
    positions: np.ndarray,
    inserts: Sequence[str],
    *,
    opens_sentence: bool = False,
) -> tuple[list[str], list[tuple[int, int]]]:
    """A copy of ``texts`` with ``inserts[j]`` placed at ``positions[j]`` of row ``rows[j]``, and
    the span each insert occupies in its new text (one insert per row). ``opens_sentence``: the
    inserts start the sentence, so an ordinary word they push along loses its capital
    (:func:`~shortcutlab.casing.lower_ordinary_opener`).

    Examples:
        >>> insert_at(["Good. Bad.", ""], np.array([0, 1]), np.array([6, 0]), ["Honestly, "] * 2)
        (['Good. Honestly, Bad.', 'Honestly,'], [(6, 16), (0, 9)])
        >>> insert_at(["Good. The lid.", "I do."], np.array([0, 1]), np.array([6, 0]),
        ...           ["Honestly, "] * 2, opens_sentence=True)[0]
        ['Good. Honestly, the lid.', 'Honestly, I do.']
    """
    out = list(texts)
    spans = []
    for row, pos, piece in zip(rows.tolist(), positions.tolist(), inserts, strict=True):
        text = out[row]
        if text:
            rest = lower_ordinary_opener(text[pos:]) if opens_sentence else text[pos:]
            out[row] = text[:pos] + piece + rest
            spans.append((pos, pos + len(piece)))
        else:
            out[row] = piece.rstrip()
            spans.append((0, len(out[row])))
    return out, spans


def prepended(
    leads: Sequence[str], texts: Sequence[str]
) -> tuple[list[str], list[list[tuple[int, int]]]]:
    """``lead + " " + text`` per row (the lead alone for an empty text), and per row the span the
    lead and its space occupy.

    Examples:
        >>> prepended(["I wrote this review in Oslo.", "Fine."], ["Good.", ""])
        (['I wrote this review in Oslo. Good.', 'Fine.'], [[(0, 29)], [(0, 5)]])
    """
    out, spans = [], []
    for lead, text in zip(leads, texts, strict=True):
        out.append(f"{lead} {text}" if text else lead)
        spans.append([(0, len(lead) + 1 if text else len(lead))])
    return out, spans


# Removal sites are tidied by what touches them: quotes or brackets around nothing but the removed
# words go with them, a separator after them goes when one is already before them (or they started
# a sentence), a hyphen or underscore joining them to another word goes, and a sentence they
# started gets its next word capitalised.
_TERMINAL = ".!?\u2026"
_WRAPPERS = {
    '"': '"',
    "'": "'",
    "\u201c": "\u201d",
    "\u2018": "\u2019",
    "\u00ab": "\u00bb",
    "(": ")",
    "[": "]",
}
_INSIDE_WRAPPER = ",;:" + _TERMINAL
_SEPARATORS_AFTER = ",;:"
_SEPARATORS_BEFORE = ",;:([-\u2013\u2014"
_ENDS_AFTER = _TERMINAL + ")]"
_SENTENCE_BEFORE = re.compile(
    r"(?:\A|[.!?\u2026][\"'\u201d\u2019\u00bb)\]]*|\n)[\s\"'\u201c\u2018\u00ab(\[]*\Z"
)
_WORD = re.compile(r"[^\W_]")
_CLITICS = ("s", "d", "ll", "re", "ve", "m", "t")
_MAX_PASSES = 4  # a removal can make another phrase sentence-initial; two passes settle real data


def remove_spans(text: str, spans: Iterable[tuple[int, int]]) -> str:
    """Remove ``spans`` (sorted by start) from ``text`` and tidy what each removal leaves.

    Examples:
        >>> remove_spans('"Honestly," he said.', [(1, 9)])
        'He said.'
        >>> remove_spans("Honestly- live your life", [(0, 8)])
        'Live your life'
    """
    pieces: list[str] = []
    pos = 0
    capitalize_next = False
    n = len(text)
    for span_start, span_end in spans:
        if span_start < pos:
            continue
        capital = text[span_start : span_start + 1].isupper()
        start, end, compound = _widen(text, span_start, span_end, pos)
        prefix = text[pos:start]
        if capitalize_next and _WORD.search(prefix):
            prefix, capitalize_next = capitalize_first(prefix), False
        left = prefix.rstrip(" \t")
        spaces = prefix[len(left) :]
        at_start = bool(_SENTENCE_BEFORE.search("".join(pieces) + left))
        k = _skip_chars(text, end, " \t")
        separator_end = (
            k + 1 if text[k : k + 1] in tuple(_SEPARATORS_AFTER) else _dash_end(text, k, end)
        )
        if compound:  # "an honestly-made film" -> "an made film"
            pieces.append(prefix)
            pos = end
        elif separator_end:
            if at_start or not left or left[-1] in _SEPARATORS_BEFORE:
                pieces.append(prefix)  # "Honestly, the food" / "Well, honestly, it"
                pos = _skip_chars(text, separator_end, " \t")
            else:  # "I liked it honestly, but" -> "I liked it, but"
                pieces.append(left if text[k] in _SEPARATORS_AFTER else prefix)
                pos = k
        elif k >= n or text[k] in _ENDS_AFTER:
            if at_start:  # a sentence of its own: "Great. Honestly. Loved it."
                k = _skip_chars(text, _skip_chars(text, k, _TERMINAL), " \t")
                pieces.append(left + (spaces if text[k : k + 1] not in ("", "\n") else ""))
            else:  # "It was great, honestly." -> "It was great."
                pieces.append(left.rstrip(_SEPARATORS_AFTER).rstrip(" \t"))
            pos = k
        else:  # "I honestly think" -> "I think"
            pieces.append(left if text[k : k + 1] == "\n" else prefix)
            pos = k
        capitalize_next = capitalize_next or (at_start and capital)
    tail = text[pos:]
    return "".join(pieces) + (capitalize_first(tail) if capitalize_next else tail)


def _widen(text: str, start: int, end: int, floor: int) -> tuple[int, int, bool]:
    """Grow a removal over a clitic ("honestly's"), wrapping quotes or brackets, or a compound's
    joining hyphen or underscore; the flag says the removal was joined to another word."""
    n = len(text)
    if text[end : end + 1] in ("'", "\u2019"):
        clitic = _skip_word(text, end + 1)
        if text[end + 1 : clitic].lower() in _CLITICS:
            end = clitic
    wrapped = False
    while start > floor and text[start - 1] in _WRAPPERS:
        opener = text[start - 1]
        close = _skip_chars(text, end, _INSIDE_WRAPPER)
        if close >= n or text[close] != _WRAPPERS[opener]:
            break
        if opener in "'\u2018" and start >= 2 and text[start - 2].isalnum():
            break  # an apostrophe inside a word, not an opening quote
        start, end, wrapped = start - 1, close + 1, True
    if wrapped:
        return start, end, False
    if start - 1 >= floor and start >= 2 and text[start - 1] in "-_" and text[start - 2].isalnum():
        return start - 1, end, True
    if end + 1 < n and text[end] in "-_" and text[end + 1].isalnum():
        return start, end + 1, True
    return start, end, False


def _dash_end(text: str, k: int, end: int) -> int:
    """Where a dash used as a separator at ``k`` ends (0 if there is none): "Honestly - it",
    "Honestly- it", "Honestly -- it", "Honestly\u2014it"; never a hyphen inside a compound."""
    if k >= len(text) or text[k] not in "-\u2013\u2014":
        return 0
    stop = _skip_chars(text, k, "-\u2013\u2014")
    if text[k] != "-" or k > end or stop - k > 1 or stop >= len(text) or text[stop].isspace():
        return stop
    return 0


def _skip_chars(text: str, i: int, chars: str) -> int:
    while i < len(text) and text[i] in chars:
        i += 1
    return i


def _skip_word(text: str, i: int) -> int:
    while i < len(text) and text[i].isalnum():
        i += 1
    return i


class PatternRemover:
    """Remove every match of a regex from texts, tidying around each removal (see :func:`remove_spans`).

    ``needles`` are lower-case literals that every match contains; they pick the candidate rows at
    C speed, and only those rows are searched with the regex.

    Examples:
        >>> remove = PatternRemover(r"(?<![^\\W_])I wrote this review in [A-Z]\\w+\\.", ["review"])
        >>> remove(["I wrote this review in Oslo. Fine.", "Fine. I wrote this review in Peru."])
        (['Fine.', 'Fine.'], array([1, 1]))
    """

    def __init__(self, pattern: str, needles: Sequence[str]) -> None:
        self.regex = re.compile(pattern, re.IGNORECASE)
        self.needles = sorted({n.lower() for n in needles if n})

    def candidate_rows(self, texts: Sequence[str]) -> np.ndarray:
        return rows_containing(texts, self.needles) if self.needles else np.arange(len(texts))

    def spans(self, text: str) -> list[tuple[int, int]]:
        return [match.span() for match in self.regex.finditer(text) if match.end() > match.start()]

    def remove_from(self, text: str) -> tuple[str, int]:
        """The text without any match (removing again while a removal exposes a new one)."""
        removed = 0
        for _ in range(_MAX_PASSES):
            spans = self.spans(text)
            if not spans:
                break
            text = remove_spans(text, spans)
            removed += len(spans)
        return text, removed

    def __call__(self, texts: Sequence[str]) -> tuple[list[str], np.ndarray]:
        """Return the cleaned texts and the number of matches removed from each row."""
        out = list(texts)
        counts = np.zeros(len(texts), dtype=np.int64)
        for row in self.candidate_rows(texts).tolist():
            out[row], counts[row] = self.remove_from(out[row])
        return out, counts
