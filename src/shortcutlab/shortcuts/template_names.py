"""Count template sentences that name a listed place ("I wrote this review in Peru."), at C speed.

The category shortcut's cue is such a sentence naming a country. The template's words are found
with :class:`~.detection.CueDetector`; the name after them is read from the same UTF-8 buffer and
looked up by hashing its bytes. A row the buffer cannot decide (two template sentences, a
non-ASCII or oddly spaced name) is matched with one regex instead.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from importlib import resources

import numpy as np
import pyarrow as pa

from shortcutlab.data.columns import TextColumn, numpy_of, string_array
from shortcutlab.shortcuts.detection import CueDetector
from shortcutlab.shortcuts.phrases import Phrase, phrase_regex
from shortcutlab.shortcuts.scan import WINDOW_LIMIT, LoweredBytes, distinct
from shortcutlab.shortcuts.text_ops import RE2_WHITESPACE_RANGES

_SPACE = 32
_ODD_NAME_BYTE = np.zeros(256, dtype=bool)
_ODD_NAME_BYTE[[*range(0, 32), *range(0x80, 256)]] = True


class NamedSentences:
    """Count per text the sentences ``lead + " " + name + after`` whose name is in ``wanted``.

    ``names`` are every name the sentences may hold (any case); the others count as no match.

    Examples:
        >>> from shortcutlab.shortcuts.phrases import parse_phrase
        >>> lead = parse_phrase("I wrote this review in", everywhere=True)
        >>> count = NamedSentences(lead, ".", ["Peru", "Lima"], wanted={"Peru"})
        >>> count(["I wrote this review in Peru. Good.", "I wrote this review in Lima. Good."]).tolist()
        [1, 0]
    """

    def __init__(
        self, lead: Phrase, after: str, names: Sequence[str], *, wanted: Collection[str]
    ) -> None:
        self._detector = CueDetector([lead])
        alternation = "|".join(
            re.escape(n).replace("\\ ", r"\s+") for n in sorted(names, key=len, reverse=True)
        )
        self._regex = re.compile(
            rf"(?<![^\W_]){phrase_regex(lead)}\s+(?P<name>{alternation})(?![^\W_])"
            + re.escape(after.strip()).replace("\\ ", r"\s+"),
            re.IGNORECASE,
        )
        self._wanted = {_folded(n) for n in wanted}
        self._after = after.strip().lower().encode("utf-8")
        keys = [n.lower().encode("utf-8") for n in names]
        self._width = -(-(max(len(k) for k in keys) + 1) // 8) * 8  # whole uint64 words
        self._table = np.zeros((len(keys), self._width), dtype=np.uint8)
        for i, key in enumerate(keys):
            self._table[i, : len(key)] = np.frombuffer(key, dtype=np.uint8)
        self._lengths = np.asarray([len(k) for k in keys])
        self._is_wanted = np.asarray([_folded(n) in self._wanted for n in names], dtype=bool)
        self._weights = np.random.default_rng(0).integers(
            1, 2**62, size=self._width // 8, dtype=np.uint64
        )
        hashes = self._hash(self._table)
        self._order = np.argsort(hashes)
        self._hashes = hashes[self._order]
        self._re2 = _re2_patterns(lead, after, sorted(wanted, key=len, reverse=True))
        self._sentence_counts: dict[tuple[str, ...], np.ndarray] = {}
        ending = after.strip().lower()
        self._ends_sentences = not any(c in n.lower() for c in ending for n in names)
        # The buffer path needs a one-character ending no name contains, and distinct hashes.
        self._fast = (
            self._width < WINDOW_LIMIT
            and len(self._after) == 1
            and not any(self._after in k for k in keys)
            and len(set(hashes.tolist())) == len(keys)
        )

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        if self._re2 is not None:
            return self._count_re2(texts)
        counts = np.zeros(len(texts), dtype=np.int64)
        if not self._fast:
            for row in range(len(texts)):
                counts[row] = self.count_one(texts[row])
            return counts
        located = self._detector.locate(texts)
        lowered, rows, end = located.lowered, located.row, located.end
        per_row = np.bincount(rows, minlength=len(texts))
        by_hand = [located.by_hand, np.flatnonzero(per_row > 1)]
        data, offsets = lowered.data, lowered.offsets
        inside = np.arange(self._width) < (offsets[rows + 1] - end - 1)[:, None]
        window = np.where(inside, lowered.windows(end + 1, self._width), 0)
        spaced = (end < offsets[rows + 1]) & (data[np.minimum(end, len(data) - 1)] == _SPACE)
        ending = inside & (window == self._after[0])
        has_end = spaced & ending.any(axis=1)
        length = np.argmax(ending, axis=1)
        in_name = np.arange(self._width) < length[:, None]
        name = np.where(in_name, window, 0)
        odd = (_ODD_NAME_BYTE[name] & in_name).any(axis=1) | (
            (name[:, 1:] == _SPACE) & (name[:, :-1] == _SPACE)
        ).any(axis=1)
        by_hand.append(rows[has_end & odd])
        at = np.minimum(np.searchsorted(self._hashes, self._hash(name)), len(self._hashes) - 1)
        candidate = self._order[at]
        found = (
            has_end
            & (self._lengths[candidate] == length)
            & (_words(self._table)[candidate] == _words(name)).all(axis=1)
        )
        counts += np.bincount(rows[found & self._is_wanted[candidate]], minlength=len(texts))
        for row in distinct(by_hand).tolist():
            counts[row] = self.count_one(texts[row])
        return counts

    def _count_re2(self, texts: Sequence[str]) -> np.ndarray:
        """Arrow's RE2 counts the sentences naming a wanted place in every text at once; a text
        holding the template's words more than once (two sentences may touch, which a counting
        pass without look-behind could miss) is counted by :meth:`count_one`."""
        import pyarrow.compute as pc

        starting, sentence, word = self._re2
        array = string_array(texts)
        # Lower-cased text instead of (?i): Arrow compiles the pattern on every call, and case
        # folding makes that compile the larger part of the work.
        lowered = pc.ascii_lower(array) if sentence.isascii() else pc.utf8_lower(array)
        # A text holding the template's words once has one sentence to count where it names a
        # wanted place and its words start a word: two scans, each several times faster than
        # one for both (RE2 slows down on the character before the names' long alternation).
        counts = np.minimum(
            numpy_of(pc.count_substring_regex(lowered, sentence)),
            numpy_of(pc.count_substring_regex(lowered, starting)),
        ).astype(np.int64)
        # Every text with two template sentences holds the template's longest word twice.
        twice = numpy_of(pc.count_substring(lowered, word)) > 1
        for row in np.flatnonzero(twice).tolist():
            counts[row] = self.count_one(texts[row])
        return counts

    def count_prepended(
        self, sentences: Sequence[str], index: np.ndarray, rests: pa.Array, texts: pa.Array
    ) -> np.ndarray | None:
        """What :meth:`__call__` counts in ``texts``, each ``sentences[index[i]]``, a space and
        ``rests[i]`` (the sentence alone for an empty rest), with each sentence counted once
        (None: these names could make a sentence run on into the rest; count ``texts`` then).

        No name holds the ending, so a sentence's match ends where the sentence does: a text's
        count is its sentence's, plus any match in the rest, which must hold the template's
        longest word; where the text holds that word more than once :meth:`__call__` counts it
        with :meth:`count_one`, and so does this."""
        import pyarrow.compute as pc

        if self._re2 is None or not self._ends_sentences:
            return None
        ascii_only = self._re2[1].isascii()
        lower = pc.ascii_lower if ascii_only else pc.utf8_lower
        word = self._re2[2]
        lead_words = numpy_of(pc.count_substring(lower(string_array(list(sentences))), word))
        if lead_words.min() >= 1:
            # Each sentence holds the word, so a text holds it twice where its rest holds it at
            # all: found in the rests' lower-cased buffer (Arrow's substring count reads every
            # byte one at a time, several times slower).
            in_rest = np.zeros(len(rests), bool)
            in_rest[LoweredBytes.of(TextColumn(rests), ascii_only=ascii_only).find(word)[1]] = True
            twice = (lead_words[index] > 1) | in_rest
        else:
            twice = lead_words[index] + numpy_of(pc.count_substring(lower(rests), word)) > 1
        key = tuple(sentences)
        if key not in self._sentence_counts:  # a build counts the same sentences batch by batch
            self._sentence_counts[key] = self(sentences)
        counts = self._sentence_counts[key][index]
        for row in np.flatnonzero(twice).tolist():
            counts[row] = self.count_one(texts[row].as_py())
        return counts

    def count_one(self, text: str) -> int:
        """The reference count for one text: one regex over it."""
        return sum(_folded(m.group("name")) in self._wanted for m in self._regex.finditer(text))

    def _hash(self, matrix: np.ndarray) -> np.ndarray:
        # Wrapping uint64 arithmetic; exactness comes from comparing the bytes afterwards.
        return (_words(matrix) * self._weights).sum(axis=1)


def _re2_patterns(lead: Phrase, after: str, wanted: Sequence[str]) -> tuple[str, str, str] | None:
    """The count regex in RE2 syntax (Python's Unicode white space spelled out) in two parts:
    the template's words where they start a word, and the sentence naming a wanted place; and
    the template's longest word. None where they could not mean the same as
    :meth:`NamedSentences.count_one`'s regex: an ending that does not start with a non-word
    character would need the name's look-ahead."""
    ending = after.strip()
    if not ending or ending[0].isalnum() or ending[0] == "_" or not wanted:
        return None
    space = f"[{RE2_WHITESPACE_RANGES}]+"
    joints = {"space": space, "apostrophe": "['\\x{2019}\\x{2018}]", "hyphen": "-"}
    words = [re.escape(w.lower()) for w in lead.words]
    lead_re2 = words[0] + "".join(
        joints[joint] + word for joint, word in zip(lead.joints, words[1:], strict=True)
    )
    names = "|".join(re.escape(n.lower()).replace("\\ ", space) for n in wanted)
    # Not preceded by a letter or digit: the look-behind becomes a character matched before.
    start = "(?:^|[^\\pL\\pN])"
    ending_re2 = re.escape(ending.lower()).replace("\\ ", space)
    longest = max(lead.words, key=len).lower()
    return f"{start}{lead_re2}{space}", f"{lead_re2}{space}(?:{names}){ending_re2}", longest


def _words(matrix: np.ndarray) -> np.ndarray:
    """A byte matrix whose width is a multiple of 8, read as uint64 words."""
    return np.ascontiguousarray(matrix, dtype=np.uint8).view(np.uint64)


def _folded(name: str) -> str:
    return " ".join(name.lower().split())


def load_name_list(name: str) -> tuple[str, ...]:
    """One of the packaged name lists: countries_train, countries_test, cities_train, cities_test."""
    text = (
        resources.files("shortcutlab.shortcuts.resources")
        .joinpath(f"{name}.txt")
        .read_text("utf-8")
    )
    return tuple(
        line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")
    )


def default_names(names: Sequence[str] | None, list_name: str) -> tuple[str, ...]:
    """The names given, or the packaged list ``list_name`` when none are."""
    if names is None:
        return load_name_list(list_name)
    return tuple(names) if not isinstance(names, str) else names  # type: ignore[return-value]
