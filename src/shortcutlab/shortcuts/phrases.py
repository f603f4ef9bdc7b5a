"""Cue phrases as a tokenizer sees them: which occurrences are the cue, removing and counting them.

A phrase is a sequence of words, a word being a run of letters and digits: scikit-learn's
``\\b\\w\\w+\\b`` and BERT's basic tokenizer both end a word at every other character, so
"'honestly'", "Honestly-" and "(honestly)" all hold the token ``honestly`` while "dishonestly"
and "honestly2" (one word for both) do not; "honestly_x" does (BERT splits at the underscore).
Not covered: WordPiece prefixes of longer words ("honestlyyy") and accented spellings that an
uncased BERT folds. A one-word phrase is a cue wherever it stands; a longer phrase only where it
is the discourse marker the occurrence shortcuts insert (:func:`is_marker`), so "I believe in
truth and justice" keeps its meaning and counts as an occurrence left alone.

Two independent ways to find occurrences live here: :class:`PhraseRemover` searches the raw text
with one regex, :class:`WordCounter` splits it into words (and :mod:`.detection` counts the same
at C speed); both judge a marker with the one rule :func:`is_marker`. Cleaning counts on the
remover's output and fails loudly if a cue is left.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from shortcutlab.errors import ConfigError
from shortcutlab.params import quoted
from shortcutlab.shortcuts.text_ops import PatternRemover

_WORDS_AND_GAPS = re.compile(r"([^\W_]+)")
_JOINT_PATTERNS = {"space": r"\s+", "apostrophe": "['\u2019\u2018]", "hyphen": "-"}
_TERMINAL = ".!?\u2026"
_CLOSERS = "\"'\u201d\u2019\u00bb)]"
_LEFT_SEPARATORS = ",;:([\u2013\u2014"
_RIGHT_SEPARATORS = ",;:)]\u2013\u2014" + _TERMINAL
_BEFORE_TRIM = re.compile(r"[\s\"'\u201c\u2018\u00ab]*\Z")
_AFTER_TRIM = re.compile(r"[\s\"'\u201d\u2019\u00bb]*")


@dataclass(frozen=True)
class Phrase:
    """A cue phrase: its lower-cased words, what joins them, and where it counts as the cue."""

    text: str
    words: tuple[str, ...]
    joints: tuple[str, ...]  # "space", "apostrophe" or "hyphen", one per pair of words
    everywhere: bool  # a cue wherever it stands, not only as a discourse marker

    @property
    def needle(self) -> str:
        """The longest word; every occurrence contains it, so it picks candidate rows."""
        return max(self.words, key=len)


def joint_kind(gap: str) -> str | None:
    """What joins two words of a phrase: any run of whitespace, one apostrophe, or one hyphen."""
    if gap.isspace():
        return "space"
    if gap in ("'", "\u2019", "\u2018"):
        return "apostrophe"
    return "hyphen" if gap == "-" else None


def parse_phrase(text: str, *, everywhere: bool | None = None) -> Phrase | None:
    """``text`` as a :class:`Phrase`, or None if it is not words joined by spaces, apostrophes or hyphens.

    Examples:
        >>> parse_phrase("if I'm being honest").words
        ('if', 'i', 'm', 'being', 'honest')
        >>> parse_phrase("honestly").everywhere, parse_phrase("in truth").everywhere
        (True, False)
    """
    parts = _WORDS_AND_GAPS.split(text.strip().lower())
    if len(parts) < 3 or parts[0] or parts[-1]:
        return None
    joints = tuple(joint_kind(gap) for gap in parts[2:-1:2])
    if None in joints:
        return None
    words = tuple(parts[1::2])
    # A single word is a cue wherever it stands: a tokenizer sees "honestly" in "I honestly think"
    # exactly as in the inserted "Honestly, "; a longer phrase is the cue only as a marker.
    return Phrase(
        text.strip(), words, joints, len(words) == 1 if everywhere is None else everywhere
    )  # type: ignore[arg-type]


def is_marker(before: str, after: str, *, at_start: bool, at_end: bool) -> bool:
    """Whether a phrase stands as a discourse marker, judged by the characters around it.

    ``before``/``after`` are the characters between the phrase and the previous/next word;
    ``at_start``/``at_end`` say there is no word before/after it in the text. A marker starts a
    sentence ("In truth, ...", "Fine. To be frank ...", after a line break or an opening quote) or
    is set off on both sides ("Well, to be frank, ...", "(in truth)", "... fine, to be honest.").

    Examples:
        >>> is_marker(". ", ", ", at_start=False, at_end=False)
        True
        >>> is_marker(" ", " ", at_start=False, at_end=False)  # "I believe in truth and justice"
        False
    """
    if at_start:
        return True
    cut = _BEFORE_TRIM.search(before).start()  # type: ignore[union-attr]
    left, skipped = before[:cut], before[cut:]
    core = left.rstrip(_CLOSERS)
    if "\n" in skipped or (core and core[-1] in _TERMINAL):
        return True
    dash = left.endswith("-") and (
        skipped[:1].isspace() or left[-2:-1].isspace() or left.endswith("--")
    )
    if not (dash or (left and left[-1] in _LEFT_SEPARATORS)):
        return False
    if at_end:
        return True
    right = after[_AFTER_TRIM.match(after).end() :]  # type: ignore[union-attr]
    if right[:1] and right[0] in _RIGHT_SEPARATORS:
        return True
    return right.startswith("-") and (
        after[:1].isspace() or right[1:2].isspace() or right[1:2] == "-"
    )


def phrase_regex(phrase: Phrase) -> str:
    """The regex of one phrase's words and joints (any case when compiled with IGNORECASE)."""
    return re.escape(phrase.words[0]) + "".join(
        _JOINT_PATTERNS[joint] + re.escape(word)
        for joint, word in zip(phrase.joints, phrase.words[1:], strict=True)
    )


def phrase_pattern(phrases: Sequence[Phrase]) -> str:
    """A regex matching any of ``phrases`` (lower-case, longest first).

    Plain alternatives that start with a letter let ``re`` skip ahead ten times faster than named
    groups or word-boundary assertions would; callers check the boundaries and find which phrase
    matched themselves.
    """
    return "|".join(phrase_regex(phrases[i]) for i in _longest_first(phrases))


def _longest_first(phrases: Sequence[Phrase]) -> list[int]:
    return sorted(
        range(len(phrases)), key=lambda i: (-len(phrases[i].words), -len(phrases[i].text))
    )


class PhraseRemover(PatternRemover):
    """Remove cue phrases: one-word phrases everywhere, longer ones where they are markers.

    Examples:
        >>> from shortcutlab.shortcuts.phrases import parse_phrase
        >>> remove = PhraseRemover([parse_phrase(p) for p in ("honestly", "in truth")])
        >>> remove(["In truth, I honestly liked it.", "I believe in truth and justice."])
        (['I liked it.', 'I believe in truth and justice.'], array([2, 0]))
    """

    def __init__(self, phrases: Sequence[Phrase]) -> None:
        super().__init__(phrase_pattern(phrases), needles(phrases))
        self.phrases = tuple(phrases)
        # Searched in the lower-cased text (much faster than IGNORECASE), or with IGNORECASE in
        # the rare text whose length lower-casing changes.
        self._lowered = re.compile(phrase_pattern(phrases))
        self._by_letter: dict[str, list[tuple[Phrase, re.Pattern[str], re.Pattern[str]]]] = {}
        for i in _longest_first(phrases):
            phrase = self.phrases[i]
            regex = phrase_regex(phrase)
            self._by_letter.setdefault(phrase.words[0][0], []).append(
                (phrase, re.compile(regex), re.compile(regex, re.IGNORECASE))
            )

    def spans(self, text: str) -> list[tuple[int, int]]:
        lowered = text.lower()
        same = len(lowered) == len(text)
        haystack, regex = (lowered, self._lowered) if same else (text, self.regex)
        spans: list[tuple[int, int]] = []
        pos = 0
        while match := regex.search(haystack, pos):
            start = match.start()
            end = self._cue_end(text, haystack, start, lowered=same)
            if end > start:
                spans.append((start, end))
            pos = max(end, start + 1)
        return spans

    def _cue_end(self, text: str, haystack: str, start: int, *, lowered: bool) -> int:
        """Where the longest cue starting at ``start`` ends (``start`` if none starts there): a
        shorter phrase counts where a longer one is no marker ("honestly" of "honestly speaking")."""
        if start > 0 and text[start - 1].isalnum():
            return start
        for phrase, exact, any_case in self._by_letter.get(haystack[start].lower(), ()):
            match = (exact if lowered else any_case).match(haystack, start)
            if match is None:
                continue
            end = match.end()
            if end < len(text) and text[end].isalnum():
                continue
            if phrase.everywhere or _marker_at(text, start, end):
                return end
        return start


def _marker_at(text: str, start: int, end: int) -> bool:
    before = start
    while before > 0 and not text[before - 1].isalnum():
        before -= 1
    after = end
    while after < len(text) and not text[after].isalnum():
        after += 1
    return is_marker(
        text[before:start], text[end:after], at_start=before == 0, at_end=after == len(text)
    )


class WordCounter:
    """Count cue phrases in one text from its words, as a tokenizer splits it (the reference count).

    Examples:
        >>> count = WordCounter([parse_phrase(p) for p in ("honestly", "in truth")])
        >>> count("'Honestly' in truth."), count("In truth, fine."), count("dishonestly")
        ((1, 1), (1, 0), (0, 0))
    """

    def __init__(self, phrases: Sequence[Phrase]) -> None:
        self._by_first: dict[str, list[Phrase]] = {}
        for phrase in sorted(phrases, key=lambda p: (-len(p.words), -len(p.text))):
            self._by_first.setdefault(phrase.words[0], []).append(phrase)

    def __call__(self, text: str) -> tuple[int, int]:
        """(cue occurrences, other occurrences); overlapping cue occurrences count once."""
        parts = _WORDS_AND_GAPS.split(text.lower())
        words, gaps = parts[1::2], parts[0::2]
        last = len(words) - 1
        cues = others = 0
        cue_end = -1
        for i, word in enumerate(words):
            for phrase in self._by_first.get(word, ()):
                j = i + len(phrase.words) - 1
                if j > last or tuple(words[i : j + 1]) != phrase.words:
                    continue
                if any(
                    joint_kind(gaps[k + 1]) != joint for k, joint in enumerate(phrase.joints, i)
                ):
                    continue
                if phrase.everywhere or is_marker(
                    gaps[i], gaps[j + 1], at_start=i == 0, at_end=j == last
                ):
                    if i > cue_end:
                        cues += 1
                    cue_end = max(cue_end, j)
                    break  # the longest cue starting at this word; shorter ones are inside it
                others += 1
        return cues, others


def needles(phrases: Sequence[Phrase]) -> list[str]:
    """Each phrase's longest word, dropping any that contains another: every occurrence of every
    phrase contains one of them ("honest" covers "honestly" and "to be honest")."""
    words = {p.needle for p in phrases}
    return sorted(w for w in words if not any(o != w and o in w for o in words))


def check_phrases(parameter: str, phrases: Sequence[str]) -> tuple[str, ...]:
    """A shortcut parameter's list of phrases, stripped; refused unless non-empty strings."""
    if (
        isinstance(phrases, str)
        or not phrases
        or not all(isinstance(p, str) and p.strip() for p in phrases)
    ):
        raise ConfigError(
            f"The {quoted(parameter)} parameter must be a non-empty list of non-empty strings. "
            f"Got {quoted(phrases)} instead."
        )
    return tuple(p.strip() for p in phrases)
