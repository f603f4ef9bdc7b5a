"""Word swaps from the packaged lists: contractions, British and American spelling, gendered words,
first names and places (LangTest's add_contraction, americanize_uk, british_spell, swap of
gendered pronouns and names, and CheckList's change_names / change_location)."""

from __future__ import annotations

import re
from abc import abstractmethod
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

import numpy as np

from shortcutlab.params import check_bool, parameter, refuse
from shortcutlab.perturb.base import Perturbation, Perturbed, TextwisePerturbation
from shortcutlab.perturb.words import (
    PhraseTable,
    folded,
    in_case_of,
    one_way,
    uniform_at,
    word_list,
    word_pairs,
)

_SOURCE = "shortcutlab/perturb/resources"


class _MappedSwap(TextwisePerturbation):
    """Every phrase of a packaged mapping replaced by its counterpart, in the phrase's case."""

    pairs: str  # the packaged .tsv
    reverse: bool = False
    followed_by: str = ""  # a lookahead a match must also meet

    @classmethod
    @cache
    def table(cls) -> tuple[PhraseTable, dict[str, str]]:
        mapping = one_way(word_pairs(cls.pairs), reverse=cls.reverse)
        return PhraseTable(mapping, followed_by=cls.followed_by), mapping

    def edit(self, text: str) -> str:
        table, mapping = self.table()
        return table.mapped([text], mapping)[0]

    def perturbed(
        self, texts: list[str], labels: np.ndarray, label_values: Sequence[Any], key: np.uint64
    ) -> Perturbed:
        table, mapping = self.table()
        return Perturbed.compared(texts, table.mapped(texts, mapping))

    def provenance(self) -> dict[str, str]:
        return {**super().provenance(), "word_list": f"{_SOURCE}/{self.pairs}.tsv"}


class ExpandContractions(_MappedSwap):
    """Contractions written out in full ("don't" -> "do not")."""

    name = "contractions-expand"
    pairs = "contractions"


class Contract(_MappedSwap):
    """Phrases that have a contraction contracted ("do not" -> "don't"), where a word follows them
    ("what it is." keeps its "it is")."""

    name = "contractions-contract"
    pairs = "contractions"
    reverse = True
    followed_by = r"(?=\s+\w)"


class Americanize(_MappedSwap):
    """British spellings made American ("colour" -> "color")."""

    name = "spelling-american"
    pairs = "british_american"


class Britishize(_MappedSwap):
    """American spellings made British ("color" -> "colour")."""

    name = "spelling-british"
    pairs = "british_american"
    reverse = True


# After "her" or "his", a word that cannot be the noun they qualify: "her" is then an object
# ("saw her and left" -> "him") and "his" stands alone ("the book is his." -> "hers").
_NOT_A_NOUN = frozenset(
    "a an the and or but nor so to of in on at by for with from as than that this then too "
    "again when while because if is was are were be been very up down out off over back".split()
)
_NEXT_WORD = re.compile(r"\s+([\w']+)")


def _her_or_his(word: str, text: str, end: int) -> str:
    after = _NEXT_WORD.match(text, end)
    qualifies = after is not None and after[1].lower() not in _NOT_A_NOUN
    if word == "her":
        return "his" if qualifies else "him"
    return "her" if qualifies else "hers"


class GenderSwap(Perturbation):
    """Gendered words and pronouns swapped for their counterparts ("he" -> "she", "his book" ->
    "her book", "aunt" -> "uncle"); "her" and "his" become possessive or object by the next word."""

    name = "gender-swap"

    @staticmethod
    @cache
    def table() -> tuple[PhraseTable, dict[str, str]]:
        pairs = word_pairs("gendered_terms")
        mapping = {**one_way(pairs, reverse=True), **one_way(pairs)}
        mapping.pop("her", None)  # by rule: _her_or_his
        return PhraseTable([*mapping, "her", "his", "hers"]), mapping

    def perturbed(
        self, texts: list[str], labels: np.ndarray, label_values: Sequence[Any], key: np.uint64
    ) -> Perturbed:
        table, mapping = self.table()

        def swap(_row: int, _k: int, match: re.Match[str]) -> str:
            word = folded(match[0])
            if word in ("her", "his"):
                return in_case_of(match[0], _her_or_his(word, match.string, match.end()))
            return in_case_of(match[0], "his" if word == "hers" else mapping[word])

        return Perturbed.compared(texts, table.rewrite(texts, swap))

    def provenance(self) -> dict[str, str]:
        return {**super().provenance(), "word_list": f"{_SOURCE}/gendered_terms.tsv"}


class _PoolSwap(Perturbation):
    """Each distinct listed name in a row replaced by another name of the same pool, the same name
    by the same replacement throughout the row, two names never by the same one. Names match as
    written unless ``any_case`` (for lower-cased data), where the replacement takes the case of
    the name it replaces."""

    any_case: bool

    @abstractmethod
    def pools(self) -> Mapping[str, tuple[str, ...]]:
        """Pool name -> the names swapped within it."""

    def check(self, label_values: Sequence[Any]) -> None:
        check_bool(self.name, "any_case", self.any_case)
        self.pools()

    def perturbed(
        self, texts: list[str], labels: np.ndarray, label_values: Sequence[Any], key: np.uint64
    ) -> Perturbed:
        seed_key = int(key)
        # The key a name is known by: folded when any case matches, else as written.
        key_of = folded if self.any_case else (lambda name: " ".join(name.split()))
        pool_of = {key_of(name): pool for pool in self.pools().values() for name in pool}
        table = PhraseTable(pool_of, case_sensitive=not self.any_case)
        chosen: dict[int, dict[str, str]] = {}

        def swap(row: int, _k: int, match: re.Match[str]) -> str:
            seen = chosen.setdefault(row, {})
            name = key_of(match[0])
            if name not in seen:
                pool = pool_of[name]
                taken = {name, *map(key_of, seen.values())}
                start = int(uniform_at(seed_key, row, len(seen)) * len(pool))
                free = [pool[(start + i) % len(pool)] for i in range(len(pool))]
                seen[name] = next((n for n in free if key_of(n) not in taken), name)
            return _written_like(match[0], seen[name]) if self.any_case else seen[name]

        return Perturbed.compared(texts, table.rewrite(texts, swap))


def _written_like(source: str, name: str) -> str:
    """``name`` in lower case where ``source`` is, else in the case :func:`in_case_of` gives."""
    return name.lower() if source.islower() else in_case_of(source, name)


def _given_pools(parameter_name: str, pools: Any, owner: str) -> dict[str, tuple[str, ...]]:
    """Lists given as a parameter, checked: each a list of two or more distinct names."""
    ok = not isinstance(pools, str) and all(
        not isinstance(pool, str)
        and len(set(pool)) >= 2
        and all(isinstance(n, str) and n.strip() for n in pool)
        for pool in pools
    )
    if not ok or not pools:
        raise refuse(
            parameter(parameter_name, owner), "a list of lists of two or more names", pools
        )
    return {str(i): tuple(dict.fromkeys(pool)) for i, pool in enumerate(pools)}


class NameSwap(_PoolSwap):
    """First names swapped for other common first names of the same list (women's or men's), so
    pronouns stay right.

    Args:
        names: Lists of names to swap within (default: the packaged women's and men's lists).
        any_case: Match names in any case ("mary" too), for lower-cased data.
    """

    name = "names-swap"

    def __init__(
        self, names: Sequence[Sequence[str]] | None = None, any_case: bool = False
    ) -> None:
        self.names = names
        self.any_case = any_case

    def pools(self) -> Mapping[str, tuple[str, ...]]:
        if self.names is None:
            return {"female": word_list("names_female"), "male": word_list("names_male")}
        return _given_pools("names", self.names, self.name)

    def provenance(self) -> dict[str, str]:
        lists = f"{_SOURCE}/names_female.txt, names_male.txt" if self.names is None else "given"
        return {**super().provenance(), "word_list": lists}


class LocationSwap(_PoolSwap):
    """Countries swapped for other countries and cities for other cities (packaged lists).

    Args:
        places: Lists of places to swap within (default: the packaged countries and cities).
        any_case: Match places in any case ("paris" too), for lower-cased data.
    """

    name = "locations-swap"

    def __init__(
        self, places: Sequence[Sequence[str]] | None = None, any_case: bool = False
    ) -> None:
        self.places = places
        self.any_case = any_case

    def pools(self) -> Mapping[str, tuple[str, ...]]:
        if self.places is None:
            return {kind: word_list(f"places_{kind}") for kind in ("countries", "cities")}
        return _given_pools("places", self.places, self.name)

    def provenance(self) -> dict[str, str]:
        lists = f"{_SOURCE}/places_countries.txt, places_cities.txt"
        return {**super().provenance(), "word_list": lists if self.places is None else "given"}
