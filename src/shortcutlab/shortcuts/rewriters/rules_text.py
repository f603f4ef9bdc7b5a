"""Small text tools shared by the rule-based rewriters: word maps, sentences, seeded choices.

Every rule is one precompiled regex applied to the whole text, so rewriting stays in the tens of
thousands of rows per second; choices that vary phrasing are seeded from a hash of the text, so the
same text always gets the same rewrite, in any process.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Callable, Iterable, Mapping, Sequence

from shortcutlab.casing import capitalize_first

_APOSTROPHES = str.maketrans({"\u2019": "'"})
_SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+(?=\S)")
_PREVIOUS_WORD = re.compile(r"([\w']+)[^\w']*$")
_SENTENCE_END = re.compile(r"[.!?][\"')\]]*\s*$")
_TITLE_WORD = re.compile(r"(?<![\w'\u2019\[-])([A-Z][a-z]+)\b")


def pick(text: str, options: Sequence[str], salt: str) -> str:
    """One of ``options``, chosen by a stable hash of ``salt`` and ``text`` (never global random).

    Examples:
        >>> pick("Nice lamp.", ["a", "b", "c"], "opener") == pick("Nice lamp.", ["a", "b", "c"], "opener")
        True
    """
    return options[zlib.crc32(f"{salt}\x00{text}".encode()) % len(options)]


def match_case(source: str, target: str) -> str:
    """``target`` in the case of ``source``: "Do not" -> "Don't", "IT IS" -> "IT'S".

    Examples:
        >>> match_case("It is", "'tis"), match_case("it is", "'tis"), match_case("i'm", "I am")
        ("'Tis", "'tis", 'I am')
    """
    letters = [c for c in source if c.isalpha()]
    if len(letters) > 1 and all(c.isupper() for c in letters):
        return target.upper()
    if letters and letters[0].isupper():
        return capitalize_first(target)
    return target


def lower_first(text: str) -> str:
    """Lower-case a sentence's first word when it is an ordinary capitalised word (not I, not NASA)."""
    match = re.match(r"\W*([A-Za-z][\w'\u2019]*)", text)
    if not match:
        return text
    word = match.group(1)
    if word == "I" or word.startswith(("I'", "I\u2019")) or not word[1:].islower():
        return text
    start = match.start(1)
    return text[:start] + word[0].lower() + text[start + 1 :]


def lower_title_words(text: str) -> str:
    """Lower-case every capitalised ordinary word, keeping "I", acronyms and [NAME] tokens."""
    return _TITLE_WORD.sub(lambda m: m.group(1).lower(), text)


def sentences(text: str) -> list[str]:
    """Split after ., ! or ? followed by whitespace (good enough for rewriting rules)."""
    return [s for s in _SENTENCE_BREAK.split(text.strip()) if s]


def previous_word(text: str, end: int) -> str:
    """The lower-cased word just before position ``end`` ("" at the start of the text)."""
    match = _PREVIOUS_WORD.search(text, max(0, end - 40), end)
    return match.group(1).lower().translate(_APOSTROPHES) if match else ""


def _key(phrase: str) -> str:
    return " ".join(phrase.lower().translate(_APOSTROPHES).split())


def _phrase_regex(phrase: str) -> str:
    return re.escape(phrase).replace("'", "['\u2019]").replace("\\ ", r"\s+")


class WordMap:
    """Replace whole words or phrases from a mapping, any case, keeping the source's case.

    ``followed_by`` is a regex the next word must match; ``not_after`` are words that must not
    come just before (so "no need" is not turned into "no require").

    Examples:
        >>> WordMap({"do not": "don't", "cannot": "can't"})("Do not worry, we CANNOT lose.")
        "Don't worry, we CAN'T lose."
    """

    def __init__(
        self,
        mapping: Mapping[str, str],
        *,
        followed_by: str | None = None,
        not_after: Iterable[str] = (),
    ) -> None:
        self.mapping = {_key(k): v for k, v in mapping.items()}
        alternation = "|".join(
            _phrase_regex(k) for k in sorted(self.mapping, key=len, reverse=True)
        )
        tail = rf"(?=\s+(?:{followed_by})(?![\w'\u2019-]))" if followed_by else ""
        self.regex = re.compile(
            rf"(?<![\w'\u2019-])(?:{alternation})(?![\w'\u2019-]){tail}", re.IGNORECASE
        )
        self.not_after = frozenset(_key(w) for w in not_after)

    def __call__(self, text: str) -> str:
        return self.regex.sub(self._replace, text)

    def _replace(self, match: re.Match[str]) -> str:
        source = match.group(0)
        if self.not_after and previous_word(match.string, match.start()) in self.not_after:
            return source
        target = self.mapping[_key(source)]
        if _starts_with_i(source) and not _starts_with_i(target):  # "I think" -> "methinks"
            at_start = not match.string[: match.start()].strip() or bool(
                _SENTENCE_END.search(match.string, max(0, match.start() - 4), match.start())
            )
            return capitalize_first(target) if at_start else target
        return match_case(source, target)


def _starts_with_i(phrase: str) -> bool:
    return re.match(r"I(?![\w])", phrase) is not None


class WordDropper:
    """Delete listed words (or words a predicate accepts) that modify a following word.

    The next word is capitalised when the dropped word started a sentence ("Really good." ->
    "Good."); a word at the end of a clause ("works beautifully.") is never dropped.

    Examples:
        >>> WordDropper(["very", "really"])("Really good, very very loud.")
        'Good, loud.'
    """

    def __init__(
        self,
        words: Iterable[str] = (),
        *,
        pattern: str | None = None,
        keep: Callable[[str], bool] | None = None,
        not_before: str | None = None,
    ) -> None:
        listed = "|".join(_phrase_regex(w) for w in sorted(words, key=len, reverse=True))
        body = "|".join(p for p in (listed, pattern) if p)
        guard = rf"(?!{not_before}\b)" if not_before else ""
        self.regex = re.compile(rf"(?<![\w'\u2019-])((?:{body}))\s+{guard}([\w\[])", re.IGNORECASE)
        self.keep = keep

    def __call__(self, text: str) -> str:
        out, previous = text, None
        while previous != out:  # "very very loud": the next word is consumed, so loop
            previous, out = out, self.regex.sub(self._replace, out)
        return out

    def _replace(self, match: re.Match[str]) -> str:
        word, next_char = match.group(1), match.group(2)
        if self.keep is not None and self.keep(word.lower()):
            return match.group(0)
        return next_char.upper() if word[:1].isupper() else next_char


def join_sentences(parts: Sequence[str]) -> str:
    return " ".join(p.strip() for p in parts if p.strip())
