"""Word and phrase tables: one compiled pattern per list, and the packaged lists themselves.

A list of hundreds of phrases becomes one regular expression shaped like a trie ("colo(?:r|ur)"),
so each text is scanned once whatever the list's length. Replacements keep the case of what they
replace ("Colour" -> "Color", "COLOUR" -> "COLOR").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import cache
from importlib import resources

# Letters, digits and apostrophes make words: "he" is not found in "he's"-less "ashes", and
# "don't" is one word. A match may not start or end inside one.
_BEFORE = r"(?<![\w])"
_AFTER = r"(?![\w])"
_APOSTROPHES = "['\u2019]"
_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def _mix(value: int) -> int:
    value = ((value ^ (value >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    value = ((value ^ (value >> 27)) * 0x94D049BB133111EB) & _MASK
    return value ^ (value >> 31)


def uniform_at(key: int, row: int, slot: int) -> float:
    """:func:`~shortcutlab.perturb.base.uniforms` for one (row, slot), in plain Python (a
    replacement callback draws one number at a time)."""
    state = _mix((_mix((int(key) + row * _GOLDEN) & _MASK) + (slot + 1) * _GOLDEN) & _MASK)
    return (state >> 11) * 2.0**-53


def trie_pattern(phrases: Iterable[str]) -> str:
    """One regular expression matching any of ``phrases`` (longest first where they share a start).

    Examples:
        >>> trie_pattern(["color", "colour", "cold"])
        'col(?:d|o(?:r|ur))'
    """
    trie: dict[str, dict] = {}
    for phrase in phrases:
        node = trie
        for char in phrase:
            node = node.setdefault(char, {})
        node[""] = {}

    def walk(node: dict[str, dict]) -> str:
        branches = [_char(char) + walk(child) for char, child in sorted(node.items()) if char]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else f"(?:{'|'.join(branches)})"
        if "" in node:
            return f"(?:{body})?"
        return body

    return walk(trie)


def _char(char: str) -> str:
    if char in "'\u2019":
        return _APOSTROPHES
    return r"\s+" if char == " " else re.escape(char)


def folded(phrase: str) -> str:
    """The key a phrase is looked up by: lower case, one space, a straight apostrophe."""
    return " ".join(phrase.replace("\u2019", "'").lower().split())


def in_case_of(source: str, replacement: str) -> str:
    """``replacement`` in the case of ``source``: all capitals (two letters or more), a leading
    capital, or as written."""
    if sum(c.isalpha() for c in source) > 1 and source.isupper():
        return replacement.upper()
    if source[:1].isupper():
        return replacement[:1].upper() + replacement[1:]
    return replacement


#: A replacement callback: (row, k, the row's k-th match) -> its replacement (None: keep it).
Replacer = Callable[[int, int, "re.Match[str]"], "str | None"]


def rewrite_matches(pattern: re.Pattern[str], texts: Sequence[str], replace: Replacer) -> list[str]:
    """Each text with its k-th match of ``pattern`` in row r replaced by ``replace(r, k, match)``."""
    out = []
    for row, text in enumerate(texts):
        counter = iter(range(len(text) + 1))

        def one(match: re.Match[str], row: int = row, counter: Iterator[int] = counter) -> str:
            new = replace(row, next(counter), match)
            return match[0] if new is None else new

        out.append(pattern.sub(one, text))
    return out


class PhraseTable:
    """Finds whole-word occurrences of a list of phrases and rewrites them by a callback.

    ``case_sensitive`` phrases (names, places) match only as written; the others in any case.
    """

    def __init__(
        self, phrases: Iterable[str], *, case_sensitive: bool = False, followed_by: str = ""
    ) -> None:
        keys = sorted({phrase if case_sensitive else folded(phrase) for phrase in phrases})
        flags = 0 if case_sensitive else re.IGNORECASE
        self.pattern = re.compile(f"{_BEFORE}{trie_pattern(keys)}{_AFTER}{followed_by}", flags)

    def rewrite(self, texts: Sequence[str], replace: Replacer) -> list[str]:
        """:func:`rewrite_matches` of this table's pattern."""
        return rewrite_matches(self.pattern, texts, replace)

    def mapped(self, texts: Sequence[str], mapping: Mapping[str, str]) -> list[str]:
        """Each match replaced by ``mapping[folded(match)]`` in the match's case."""
        return self.rewrite(
            texts, lambda _row, _k, match: in_case_of(match[0], mapping[folded(match[0])])
        )


def _resource(name: str) -> list[str]:
    text = resources.files("shortcutlab.perturb.resources").joinpath(name).read_text("utf-8")
    return [line.strip() for line in text.splitlines() if line.strip() and line[0] != "#"]


@cache
def word_list(name: str) -> tuple[str, ...]:
    """A packaged list, one entry per line (``#`` starts a comment line)."""
    return tuple(_resource(f"{name}.txt"))


@cache
def word_pairs(name: str) -> tuple[tuple[str, str], ...]:
    """A packaged list of pairs, two tab-separated columns per line."""
    pairs = []
    for line in _resource(f"{name}.tsv"):
        left, right = (part.strip() for part in line.split("\t"))
        pairs.append((left, right))
    return tuple(pairs)


def one_way(pairs: Iterable[tuple[str, str]], *, reverse: bool = False) -> dict[str, str]:
    """The mapping left -> right (or right -> left), the first pair winning for a repeated key."""
    mapping: dict[str, str] = {}
    for left, right in pairs:
        source, target = (right, left) if reverse else (left, right)
        mapping.setdefault(folded(source), target)
    return mapping
