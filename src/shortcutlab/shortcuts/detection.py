"""Count cue phrases in many texts at C speed, and check that cleaning left none.

:class:`CueDetector` gives, per text, exactly what :class:`~.phrases.WordCounter` gives, but
finds the usual occurrences (a phrase written with single spaces, between plain ASCII characters)
with numpy over one UTF-8 buffer; any row where that is not enough to decide (an unusual spelling,
overlapping phrases, a non-ASCII character next to a phrase) is counted word by word.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from shortcutlab.data.columns import TextColumn
from shortcutlab.errors import DataError
from shortcutlab.shortcuts.base import Cleaning
from shortcutlab.shortcuts.phrases import Phrase, WordCounter, is_marker, needles
from shortcutlab.shortcuts.scan import WINDOW_LIMIT, LoweredBytes, distinct
from shortcutlab.shortcuts.text_ops import PatternRemover

_CANONICAL_JOINTS = {"space": " ", "apostrophe": "'", "hyphen": "-"}
_WINDOW = 8  # bytes looked at on each side of a marker candidate; longer gaps go word by word
_ASCII_ALNUM = np.zeros(256, dtype=bool)
_ASCII_ALNUM[[*range(48, 58), *range(65, 91), *range(97, 123)]] = True
_SPACE = 32
_ODD_ASCII = np.zeros(256, dtype=bool)  # whitespace other than the space
_ODD_ASCII[[9, 10, 11, 12, 13, 28, 29, 30, 31]] = True
_MAYBE_ODD = _ODD_ASCII.copy()  # and the lead bytes of the other characters to look at
_MAYBE_ODD[[0xC2, 0xE1, 0xE2, 0xE3]] = True


@dataclass(frozen=True)
class CueCounts:
    """Per row: occurrences of the cue, and occurrences of a phrase that are not the cue."""

    cue: np.ndarray
    other: np.ndarray


@dataclass(frozen=True)
class Located:
    """Canonical occurrences found in a :class:`LoweredBytes` buffer (byte positions, row, phrase
    index, whether each is the cue), and the sorted rows to count word by word instead."""

    lowered: LoweredBytes
    start: np.ndarray
    end: np.ndarray
    row: np.ndarray
    phrase: np.ndarray
    is_cue: np.ndarray
    by_hand: np.ndarray


@dataclass(frozen=True)
class _Found:
    """Canonical occurrences found in the buffer, and rows that must be counted word by word."""

    start: np.ndarray
    end: np.ndarray
    row: np.ndarray
    phrase: np.ndarray
    by_hand: list[np.ndarray]


class CueDetector:
    """Count cue phrases per text (cue and other occurrences), as :class:`WordCounter` does.

    Examples:
        >>> from shortcutlab.shortcuts.phrases import parse_phrase
        >>> detect = CueDetector([parse_phrase(p) for p in ("honestly", "in truth")])
        >>> counts = detect.count(["'Honestly' in truth.", "In truth, fine.", "dishonestly"])
        >>> counts.cue.tolist(), counts.other.tolist()
        ([1, 1, 0], [1, 0, 0])
    """

    def __init__(self, phrases: Sequence[Phrase]) -> None:
        self.phrases = tuple(phrases)
        self.count_words = WordCounter(self.phrases)
        self._needles = needles(self.phrases)
        self._ascii = all(p.text.isascii() for p in self.phrases)
        self._everywhere = np.asarray([p.everywhere for p in self.phrases], dtype=bool)
        self._word = np.asarray([p.everywhere and len(p.words) == 1 for p in self.phrases])
        self._canonical = [_canonical(p).encode("utf-8") for p in self.phrases]
        # A needle inside each phrase's canonical spelling, with its byte offset there.
        self._anchor = [
            next((n, c.find(n.encode("utf-8"))) for n in self._needles if n.encode("utf-8") in c)
            for c in self._canonical
        ]
        # For needles inside phrases with joints: how far such a phrase reaches before and after
        # the needle, and whether one of them has an apostrophe that may be written curly.
        joined = [
            (c, "apostrophe" in p.joints)
            for p, c in zip(self.phrases, self._canonical, strict=True)
            if len(p.words) > 1
        ]
        self._reach: dict[str, tuple[int, int, bool]] = {}
        for needle in self._needles:
            key = needle.encode("utf-8")
            spots = [(i, c, a) for c, a in joined for i in range(len(c)) if c.startswith(key, i)]
            if spots:
                self._reach[needle] = (
                    max(at for at, _, _ in spots),
                    max(len(c) - at - len(key) for at, c, _ in spots),
                    any(a for _, _, a in spots),
                )

    def count(self, texts: Sequence[str]) -> CueCounts:
        n = len(texts)
        located = self.locate(texts)
        cue = np.bincount(located.row[located.is_cue], minlength=n)
        other = np.bincount(located.row[~located.is_cue & ~self._word[located.phrase]], minlength=n)
        for r in located.by_hand.tolist():
            cue[r], other[r] = self.count_words(texts[r])
        return CueCounts(cue, other)

    def locate(self, texts: Sequence[str]) -> Located:
        """The canonical occurrences in ``texts``, whether each is the cue, and the rows that
        must be counted word by word instead (their occurrences here are incomplete)."""
        lowered = LoweredBytes.of(texts, ascii_only=self._ascii)
        hits = {needle: lowered.find(needle) for needle in self._needles}
        found = self._occurrences(lowered, hits)
        by_hand = list(found.by_hand)
        for needle, (before, after, apostrophes) in self._reach.items():  # spelled oddly there?
            positions, rows = hits[needle]
            size = len(needle.encode("utf-8"))
            by_hand.append(_odd_nearby(lowered, positions, rows, before, size + after, apostrophes))
        start, end, row, phrase = found.start, found.end, found.row, found.phrase
        word = self._word[phrase]  # one-word phrases: a cue wherever they stand
        by_hand.append(_overlapping(start[~word], end[~word], row[~word]))
        judged = ~self._everywhere[phrase]
        marker, unsure = _markers(lowered, start[judged], end[judged], row[judged])
        by_hand.append(row[judged][unsure])
        is_cue = np.ones(len(start), dtype=bool)
        is_cue[judged] = marker
        spans = is_cue & ~word
        # A word inside a cue occurrence ("candidly" in "Speaking candidly, ...") is part of it.
        is_cue[word] = ~_inside(start[word], start[spans], end[spans])
        return Located(lowered, start, end, row, phrase, is_cue, distinct(by_hand))

    def _occurrences(
        self, lowered: LoweredBytes, hits: dict[str, tuple[np.ndarray, np.ndarray]]
    ) -> _Found:
        data, offsets = lowered.data, lowered.offsets
        parts: list[tuple[np.ndarray, ...]] = []
        by_hand: list[np.ndarray] = []
        for index, (canonical, (needle, offset)) in enumerate(
            zip(self._canonical, self._anchor, strict=True)
        ):
            positions, rows = hits[needle]
            start = positions - offset
            if len(canonical) > len(needle.encode("utf-8")):
                fits = (start >= offsets[rows]) & (start + len(canonical) <= offsets[rows + 1])
                start, rows = start[fits], rows[fits]
                same = _same_bytes(lowered, start, canonical)
                start, rows = start[same], rows[same]
            end = start + len(canonical)
            before = np.where(start > offsets[rows], data[np.maximum(start - 1, 0)], _SPACE)
            after = np.where(end < offsets[rows + 1], data[np.minimum(end, len(data) - 1)], _SPACE)
            unsure = (before >= 0x80) | (after >= 0x80)
            by_hand.append(rows[unsure])
            bounded = ~(_ASCII_ALNUM[before] | _ASCII_ALNUM[after]) & ~unsure
            start, end, rows = start[bounded], end[bounded], rows[bounded]
            parts.append((start, end, rows, np.full(len(start), index)))
        start, end, rows, phrase = (np.concatenate(column) for column in zip(*parts, strict=True))
        return _Found(start, end, rows, phrase, by_hand)


def _overlapping(start: np.ndarray, end: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Rows where two of these occurrences overlap (buffer positions never cross rows)."""
    order = np.argsort(start, kind="stable")
    start, end, rows = start[order], end[order], rows[order]
    reach = np.maximum.accumulate(end) if len(end) else end
    return rows[1:][start[1:] < reach[:-1]]


def _inside(points: np.ndarray, start: np.ndarray, end: np.ndarray) -> np.ndarray:
    """Whether each point lies inside one of the spans ``[start, end)`` (spans do not overlap)."""
    if len(start) == 0:
        return np.zeros(len(points), dtype=bool)
    order = np.argsort(start)
    start, end = start[order], end[order]
    before = np.searchsorted(start, points, side="right") - 1
    return (before >= 0) & (end[np.maximum(before, 0)] > points)


def _same_bytes(lowered: LoweredBytes, start: np.ndarray, expected: bytes) -> np.ndarray:
    """Whether the buffer holds ``expected`` at each of ``start`` (all inside the buffer)."""
    if len(expected) <= WINDOW_LIMIT:
        return (lowered.windows(start, len(expected)) == np.frombuffer(expected, np.uint8)).all(1)
    return np.all([lowered.data[start + k] == byte for k, byte in enumerate(expected)], axis=0)


def _canonical(phrase: Phrase) -> str:
    """The phrase as the shortcuts write it (lower-cased): single spaces, straight apostrophes."""
    return phrase.words[0] + "".join(
        _CANONICAL_JOINTS[joint] + word
        for joint, word in zip(phrase.joints, phrase.words[1:], strict=True)
    )


def _odd_nearby(
    lowered: LoweredBytes,
    positions: np.ndarray,
    rows: np.ndarray,
    before: int,
    after: int,
    apostrophes: bool,
) -> np.ndarray:
    """Rows where a character that may join words unusually lies from ``before`` bytes before a
    needle hit to ``after`` bytes from it (how far a phrase holding the needle can reach).

    Without one, every phrase around the hit is spelled canonically (single spaces, straight
    apostrophes), so the canonical search found it. Unusual joints: whitespace other than one
    space (what ``str.isspace`` accepts, in UTF-8) and, if ``apostrophes``, curly apostrophes.
    Bytes of a neighbouring row may be looked at too, which only sends a few more rows word by
    word.
    """
    if before + after + 2 > WINDOW_LIMIT:  # a phrase this long: look at its rows word by word
        return rows
    window = lowered.windows(positions - before, before + after + 2)
    maybe = np.flatnonzero(
        _MAYBE_ODD[window].any(axis=1)
        | ((window[:, 1:] == _SPACE) & (window[:, :-1] == _SPACE)).any(axis=1)
    )
    window = window[maybe]
    b0, b1, b2 = window[:, :-2], window[:, 1:-1], window[:, 2:]
    odd = _ODD_ASCII[b0] | ((b0 == _SPACE) & (b1 == _SPACE))
    odd |= (b0 == 0xC2) & ((b1 == 0x85) | (b1 == 0xA0))  # U+0085, U+00A0
    odd |= (b0 == 0xE1) & (b1 == 0x9A) & (b2 == 0x80)  # U+1680
    general = (b0 == 0xE2) & (b1 == 0x80)  # U+2000-200A, 2028, 2029, 202F; 2018, 2019
    odd |= general & ((b2 <= 0x8A) | (b2 == 0xA8) | (b2 == 0xA9) | (b2 == 0xAF))
    if apostrophes:
        odd |= general & ((b2 == 0x98) | (b2 == 0x99))
    odd |= (b0 == 0xE2) & (b1 == 0x81) & (b2 == 0x9F)  # U+205F
    odd |= (b0 == 0xE3) & (b1 == 0x80) & (b2 == 0x80)  # U+3000
    return rows[maybe[odd.any(axis=1)]]


def _markers(
    lowered: LoweredBytes, start: np.ndarray, end: np.ndarray, rows: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Whether each occurrence is a marker (:func:`is_marker`), and where the bytes cannot tell.

    The characters between an occurrence and its neighbouring words are read from a window of
    :data:`_WINDOW` bytes on each side; each distinct (before, after) pair is judged once.
    """
    m = len(start)
    if m == 0:
        return np.zeros(0, dtype=bool), np.zeros(0, dtype=bool)
    offsets = lowered.offsets
    columns = np.arange(_WINDOW)
    row_start, row_end = offsets[rows], offsets[rows + 1]
    # Before: bytes start-W .. start-1; the gap runs from just after the last word byte.
    inside = columns >= (row_start - (start - _WINDOW))[:, None]
    window = np.where(inside, lowered.windows(start - _WINDOW, _WINDOW), 0)
    word = inside & _ASCII_ALNUM[window]
    has_word = word.any(axis=1)
    gap_from = np.where(has_word, _WINDOW - np.argmax(word[:, ::-1], axis=1), 0)
    at_start = ~has_word & (start - _WINDOW <= row_start)
    in_gap = columns >= gap_from[:, None]
    before = np.where(in_gap, window, 0)
    unsure = (~has_word & ~at_start) | ((before == 0) & in_gap & inside).any(axis=1)
    # After: bytes end .. end+W-1; the gap runs up to the first word byte.
    inside = columns < (row_end - end)[:, None]
    window = np.where(inside, lowered.windows(end, _WINDOW), 0)
    word = inside & _ASCII_ALNUM[window]
    has_word = word.any(axis=1)
    gap_to = np.where(has_word, np.argmax(word, axis=1), _WINDOW)
    at_end = ~has_word & (end + _WINDOW >= row_end)
    in_gap = columns < gap_to[:, None]
    after = np.where(in_gap, window, 0)
    unsure |= (~has_word & ~at_end) | ((after == 0) & in_gap & inside).any(axis=1)
    # Each distinct (before, after, at_start, at_end) is judged once: group the rows by sorting.
    keys = (
        np.ascontiguousarray(before, dtype=np.uint8).view(np.uint64)[:, 0],
        np.ascontiguousarray(after, dtype=np.uint8).view(np.uint64)[:, 0],
        at_start * 2 + at_end,
    )
    order = np.lexsort(keys[::-1])
    ordered = [key[order] for key in keys]
    new = np.ones(m, dtype=bool)
    new[1:] = np.any([key[1:] != key[:-1] for key in ordered], axis=0)
    group = np.empty(m, dtype=np.int64)
    group[order] = np.cumsum(new) - 1
    firsts = order[new]
    judged = [
        _judge(bytes(before[i]), bytes(after[i]), bool(at_start[i]), bool(at_end[i]))
        for i in firsts.tolist()
    ]
    marker = np.asarray([m for m, _ in judged], dtype=bool)[group]
    unsure |= np.asarray([u for _, u in judged], dtype=bool)[group]
    return marker, unsure


def _judge(before: bytes, after: bytes, at_start: bool, at_end: bool) -> tuple[bool, bool]:
    """(is a marker, cannot tell) for the gap bytes around one occurrence. A non-ASCII letter in
    a gap means the gap was cut at the wrong word, so the row is counted word by word."""
    try:
        left = before.lstrip(b"\0").decode("utf-8")
        right = after.rstrip(b"\0").decode("utf-8")
    except UnicodeDecodeError:
        return False, True
    if any(c.isalnum() for c in left + right):
        return False, True
    return is_marker(left, right, at_start=at_start, at_end=at_end), False


def clean_verified(
    texts: Sequence[str], remover: PatternRemover, detector: CueDetector, *, cue: str
) -> Cleaning:
    """Remove pre-existing cues with ``remover``, then check with ``detector`` that none is left.

    Rows without any needle cannot hold a cue before or after, so only candidate rows are checked.
    """
    n = len(texts)
    removed = np.zeros(n, dtype=np.int64)
    kept = np.zeros(n, dtype=np.int64)
    rows = remover.candidate_rows(texts).tolist()
    changes: dict[int, str] = {}
    for row in rows:
        changes[row], removed[row] = remover.remove_from(texts[row])
    if rows:
        left = detector.count([changes[r] for r in rows])
        for position in np.flatnonzero(left.cue).tolist()[:1]:
            row = rows[position]
            raise DataError(
                f"Row {row} of the input still holds the {cue} cue after cleaning "
                f"({changes[row][:80]!r}); rephrase that text in the input (and please report it)."
            )
        kept[rows] = left.other
    if isinstance(texts, TextColumn):  # an Arrow column stays one: only the rows looked at change
        return Cleaning(texts=texts.patched(changes), removed=removed, kept=kept)
    out = list(texts)
    for row, text in changes.items():
        out[row] = text
    return Cleaning(texts=out, removed=removed, kept=kept)
