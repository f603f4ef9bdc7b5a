"""Templates and vocabulary of the built-in HANS-style generator (McCoy et al. 2019; Shortcut Suite
section 4.1: lexical overlap, subsequence, constituent).

Written for shortcutlab, not copied from HANS: each heuristic has five sub-cases whose hypothesis
is NOT entailed although the heuristic says it is (``*_ne_*``), and five whose hypothesis is
entailed (``*_e_*``), so a model that follows the heuristic scores 100 % on one half and 0 % on the
other. The construction of every non-entailed half keeps the heuristic's premise true:

- lexical overlap: every hypothesis word occurs in the premise;
- subsequence: the hypothesis is a contiguous word sequence of the premise;
- constituent: the hypothesis is a complete clause of the premise.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

# (singular, plural) people; transitive verbs whose past tense is also the past participle.
PEOPLE = (
    ("doctor", "doctors"),
    ("lawyer", "lawyers"),
    ("actor", "actors"),
    ("artist", "artists"),
    ("banker", "bankers"),
    ("senator", "senators"),
    ("teacher", "teachers"),
    ("student", "students"),
    ("manager", "managers"),
    ("author", "authors"),
    ("judge", "judges"),
    ("secretary", "secretaries"),
    ("tourist", "tourists"),
    ("athlete", "athletes"),
    ("scientist", "scientists"),
    ("farmer", "farmers"),
    ("pilot", "pilots"),
    ("singer", "singers"),
    ("nurse", "nurses"),
    ("chef", "chefs"),
)
TRANSITIVE = (
    "called",
    "helped",
    "thanked",
    "admired",
    "recommended",
    "visited",
    "avoided",
    "contacted",
    "encouraged",
    "introduced",
    "mentioned",
    "supported",
    "advised",
    "praised",
    "followed",
    "watched",
)
INTRANSITIVE = ("waited", "slept", "laughed", "danced", "shouted", "resigned", "arrived", "smiled")
PREPOSITIONS = ("near", "behind", "beside", "next to", "in front of")
ADJECTIVES = ("happy", "tired", "young", "famous", "quiet", "brave", "curious")
# Verbs whose object may be left out ("The author read the book." entails "The author read.").
OPTIONAL_OBJECT = (
    ("read", ("book", "letter", "report", "poem", "novel", "newspaper")),
    ("painted", ("wall", "portrait", "fence", "door", "picture")),
    ("cooked", ("dinner", "soup", "meal", "rice", "pasta")),
    ("studied", ("map", "report", "contract", "plan", "chart")),
    ("sang", ("song", "anthem", "ballad", "hymn")),
    ("wrote", ("letter", "story", "essay", "note")),
    ("drew", ("picture", "map", "sketch")),
    ("baked", ("bread", "cake", "pie")),
    ("cleaned", ("room", "kitchen", "car")),
    ("drove", ("car", "truck", "bus")),
)
# Verbs that take a person as object and may also drop it ("While the author watched, ..."): the
# first verb of an NP/Z garden path, whose object is really the next clause's subject.
OBJECT_DROPPING = ("called", "visited", "followed", "watched", "helped", "left", "paid")
NONFACTIVE = ("hoped", "believed", "thought", "suspected", "claimed", "imagined")
# Verbs that take both a person object and a clause ("believed the lawyer" / "believed the lawyer
# left"), so an NP/S premise's first words are a sentence too; "hoped the lawyer" is not English.
NP_OR_CLAUSE = ("believed", "suspected", "imagined", "heard", "forgot", "knew")
FACTIVE = ("knew", "forgot", "learned", "realized", "noticed", "remembered")
UNCERTAIN_ADVERBS = ("perhaps", "maybe", "probably", "supposedly", "hopefully")
# Only adverbs that can open a sentence ("Definitely the doctor left." is not idiomatic).
CERTAIN_ADVERBS = ("certainly", "clearly", "of course", "undoubtedly", "obviously")
# "Whether or not P, Q" entails Q, so it only opens the clause whose own truth is in doubt.
NONVERIDICAL_SUBORDINATORS = ("if", "unless")
EMBEDDING_NONVERIDICAL = (*NONVERIDICAL_SUBORDINATORS, "in case", "whether or not")
VERIDICAL_SUBORDINATORS = ("since", "because", "although", "now that", "after")


class Words:
    """Draws words for one sentence; people never repeat within it."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.used: set[int] = set()

    def pick(self, options: tuple[str, ...]) -> str:
        return options[int(self.rng.integers(len(options)))]

    def person(self, plural: bool = False) -> str:
        while True:
            index = int(self.rng.integers(len(PEOPLE)))
            if index not in self.used:
                self.used.add(index)
                return PEOPLE[index][1 if plural else 0]

    def the(self) -> str:
        return f"the {self.person()}"

    def verb(self) -> str:
        return self.pick(TRANSITIVE)

    def intransitive(self) -> str:
        return self.pick(INTRANSITIVE)


def sentence(*parts: str) -> str:
    """Words joined by spaces, first letter capitalised, a full stop at the end."""
    text = " ".join(parts)
    return text[0].upper() + text[1:] + "."


Template = Callable[[Words], tuple[str, str]]


def clause(w: Words) -> tuple[str, str, str]:
    """A simple transitive clause's subject, verb and object."""
    return w.the(), w.verb(), w.the()


# Lexical overlap ---------------------------------------------------------------------------------


def ln_subject_object_swap(w: Words) -> tuple[str, str]:
    a, v, b = clause(w)
    return sentence(a, v, b), sentence(b, v, a)


def ln_preposition(w: Words) -> tuple[str, str]:
    a, v, b = clause(w)
    c, p = w.the(), w.pick(PREPOSITIONS)
    return sentence(a, p, c, v, b), sentence(c, v, a)


def ln_relative_clause(w: Words) -> tuple[str, str]:
    a, v, b = clause(w)
    c, v2 = w.the(), w.verb()
    return sentence(a, "who", v2, c, v, b), sentence(b, v, c)


def ln_passive(w: Words) -> tuple[str, str]:
    a, v, b = clause(w)
    return sentence(a, "was", v, "by", b), sentence(a, v, b)


def ln_conjunction(w: Words) -> tuple[str, str]:
    a, v, b = clause(w)
    c = w.the()
    return sentence(a, "and", c, v, b), sentence(b, v, c)


def le_relative_clause(w: Words) -> tuple[str, str]:
    a, v, b = clause(w)
    c, v2 = w.the(), w.verb()
    return sentence(a, "who", c, v2, v, b), sentence(c, v2, a)


def le_around_prepositional_phrase(w: Words) -> tuple[str, str]:
    a, v, b = clause(w)
    c, p = w.the(), w.pick(PREPOSITIONS)
    return sentence(a, p, c, v, b), sentence(a, v, b)


def le_around_relative_clause(w: Words) -> tuple[str, str]:
    a, v, b = clause(w)
    c, v2 = w.the(), w.verb()
    return sentence(a, "who", v2, c, v, b), sentence(a, v, b)


def le_conjunction(w: Words) -> tuple[str, str]:
    a, v, b = clause(w)
    c = w.the()
    return sentence(a, v, b, "and", c), sentence(a, v, c)


def le_passive(w: Words) -> tuple[str, str]:
    a, v, b = clause(w)
    return sentence(a, "was", v, "by", b), sentence(b, v, a)


# Subsequence -------------------------------------------------------------------------------------


def sn_np_s(w: Words) -> tuple[str, str]:
    a, b, c = w.the(), w.the(), w.the()
    believed, v = w.pick(NP_OR_CLAUSE), w.verb()
    return sentence(a, believed, b, v, c), sentence(a, believed, b)


def sn_pp_on_subject(w: Words) -> tuple[str, str]:
    a, v, b = clause(w)
    c, p = w.the(), w.pick(PREPOSITIONS)
    return sentence(a, p, c, v, b), sentence(c, v, b)


def sn_relative_clause_on_subject(w: Words) -> tuple[str, str]:
    a, v, b = clause(w)
    c, v2 = w.the(), w.verb()
    return sentence(a, "who", v2, c, v, b), sentence(c, v, b)


def sn_past_participle(w: Words) -> tuple[str, str]:
    a, v, b = clause(w)
    left = w.intransitive()
    return sentence(a, v, "by", b, left), sentence(b, left)


def sn_np_z(w: Words) -> tuple[str, str]:
    a, v, b = w.the(), w.pick(OBJECT_DROPPING), w.the()
    left, since = w.intransitive(), w.pick(("while", "as", "when"))
    return sentence(since, a, v, b, left), sentence(a, v, b)


def se_conjunction(w: Words) -> tuple[str, str]:
    a, v, b = clause(w)
    c = w.the()
    return sentence(a, "and", c, v, b), sentence(c, v, b)


def se_adjective(w: Words) -> tuple[str, str]:
    plural, v, b = w.person(plural=True), w.verb(), w.the()
    return sentence(w.pick(ADJECTIVES), plural, v, b), sentence(plural, v, b)


def se_understood_object(w: Words) -> tuple[str, str]:
    a = w.the()
    verb, objects = OPTIONAL_OBJECT[int(w.rng.integers(len(OPTIONAL_OBJECT)))]
    return sentence(a, verb, "the", w.pick(objects)), sentence(a, verb)


def se_relative_clause_on_object(w: Words) -> tuple[str, str]:
    a, v, b = clause(w)
    c, v2 = w.the(), w.verb()
    return sentence(a, v, b, "who", v2, c), sentence(a, v, b)


def se_pp_on_object(w: Words) -> tuple[str, str]:
    a, v, b = clause(w)
    c, p = w.the(), w.pick(PREPOSITIONS)
    return sentence(a, v, b, p, c), sentence(a, v, b)


# Constituent -------------------------------------------------------------------------------------


# Each entailed sub-case mirrors a non-entailed one with another word list (since / if, knew /
# hoped, certainly / perhaps, and / or), so one maker per shape builds both halves.


def _clause_then_clause(
    name: str, openers: Sequence[str] | None, joiner: str | None, keep: int
) -> Template:
    """Premise "<opener> A v B, C left." (or "A v B, <joiner> C left."); the hypothesis keeps clause
    ``keep`` (0: "A v B.", 1: "C left.")."""

    def make(w: Words) -> tuple[str, str]:
        a, v, b = clause(w)
        c, left = w.the(), w.intransitive()
        if openers is not None:
            premise = sentence(w.pick(openers), a, v, b + ",", c, left)
        else:
            premise = sentence(a, v, b + ",", joiner, c, left)
        return premise, sentence(a, v, b) if keep == 0 else sentence(c, left)

    make.__name__ = name
    return make


def _embedded_under_verb(name: str, verbs: Sequence[str]) -> Template:
    """Premise "A <verb> that B v C.", hypothesis "B v C."."""

    def make(w: Words) -> tuple[str, str]:
        a, b, c = w.the(), w.the(), w.the()
        embedding, v = w.pick(verbs), w.verb()
        return sentence(a, embedding, "that", b, v, c), sentence(b, v, c)

    make.__name__ = name
    return make


def _adverb(name: str, adverbs: Sequence[str]) -> Template:
    """Premise "<adverb> A v B.", hypothesis "A v B."."""

    def make(w: Words) -> tuple[str, str]:
        a, v, b = clause(w)
        return sentence(w.pick(adverbs), a, v, b), sentence(a, v, b)

    make.__name__ = name
    return make


cn_embedded_under_if = _clause_then_clause("cn_embedded_under_if", EMBEDDING_NONVERIDICAL, None, 0)
cn_after_if_clause = _clause_then_clause("cn_after_if_clause", NONVERIDICAL_SUBORDINATORS, None, 1)
cn_embedded_under_verb = _embedded_under_verb("cn_embedded_under_verb", NONFACTIVE)
cn_disjunction = _clause_then_clause("cn_disjunction", None, "or", 1)
cn_adverb = _adverb("cn_adverb", UNCERTAIN_ADVERBS)
ce_embedded_under_since = _clause_then_clause(
    "ce_embedded_under_since", VERIDICAL_SUBORDINATORS, None, 0
)
ce_after_since_clause = _clause_then_clause(
    "ce_after_since_clause", VERIDICAL_SUBORDINATORS, None, 1
)
ce_embedded_under_verb = _embedded_under_verb("ce_embedded_under_verb", FACTIVE)
ce_conjunction = _clause_then_clause("ce_conjunction", None, "and", 1)
ce_adverb = _adverb("ce_adverb", CERTAIN_ADVERBS)


@dataclass(frozen=True)
class Subcase:
    name: str
    entailed: bool
    make: Template


def _subcases(*templates: Template) -> tuple[Subcase, ...]:
    # The name's second letter says the half: ln_/sn_/cn_ not entailed, le_/se_/ce_ entailed.
    return tuple(Subcase(t.__name__, t.__name__[1] == "e", t) for t in templates)


# Ordered non-entailed / entailed alternately, so spreading a size's remainder over the first
# sub-cases keeps the two labels within one row of each other.
HEURISTICS: dict[str, tuple[Subcase, ...]] = {
    "lexical-overlap": _subcases(
        ln_subject_object_swap,
        le_relative_clause,
        ln_preposition,
        le_around_prepositional_phrase,
        ln_relative_clause,
        le_around_relative_clause,
        ln_passive,
        le_conjunction,
        ln_conjunction,
        le_passive,
    ),
    "subsequence": _subcases(
        sn_np_s,
        se_conjunction,
        sn_pp_on_subject,
        se_adjective,
        sn_relative_clause_on_subject,
        se_understood_object,
        sn_past_participle,
        se_relative_clause_on_object,
        sn_np_z,
        se_pp_on_object,
    ),
    "constituent": _subcases(
        cn_embedded_under_if,
        ce_embedded_under_since,
        cn_after_if_clause,
        ce_after_since_clause,
        cn_embedded_under_verb,
        ce_embedded_under_verb,
        cn_disjunction,
        ce_conjunction,
        cn_adverb,
        ce_adverb,
    ),
}
