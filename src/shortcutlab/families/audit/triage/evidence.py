"""The evidence behind each candidate's group, measured from the candidate, never asserted.

Each :class:`Evidence` names what was looked at, its value, which group it points to (or none)
and a sentence a person reads. Three sources (issue 35; what each adds is measured by
``bench/detection.py`` and written up in docs/how-to/triage.md):

- the candidate's kind: surface properties, metadata, a partial input and the packaged word
  lists of places and discourse markers are not what a label means;
- its words' class (:mod:`.words`): function words, discourse markers, places, numbers;
- with label names, the feeling its words carry against the name's (:mod:`.affect`) and its
  nearness to the name (:mod:`.relatedness`); with ``--judge``, an LLM's answer
  (:mod:`.judge`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from shortcutlab.families.audit.triage.affect import carries, name_valence, valence
from shortcutlab.families.audit.triage.relatedness import MIN_MARGIN, Nearness
from shortcutlab.families.audit.triage.words import CLASS_NAMES, phrase_class

SHORTCUT, SIGNAL, JUDGEMENT = "shortcut", "signal", "judgement"
#: The evidence an LLM judge gives (:mod:`.triage_judge`, ``audit --judge``).
LLM_JUDGE = "LLM judge"
#: The groups in the order a person reads them, with their headings.
GROUP_TITLES = {
    SHORTCUT: "Likely shortcuts",
    SIGNAL: "Label signal",
    JUDGEMENT: "Needs your judgement",
}
#: Packaged word lists whose words do not carry a label's meaning
#: (families/audit/scan/lexicons.py).
CONTENT_FREE_LEXICONS = {
    "countries": "place names",
    "cities": "place names",
    "candour-markers": "discourse markers",
    "discourse-markers": "discourse markers",
}
#: MPS annotators that read grammar, not meaning (families/mps, the audit's default attributes).
GRAMMATICAL_ATTRIBUTES = {"negation": "negation", "question": "a question"}


@dataclass(frozen=True)
class Evidence:
    name: str  # what was looked at: "kind", "word class", "feeling", "label-name nearness"
    value: float | str | None
    points_to: str | None  # SHORTCUT, SIGNAL or None (informative only)
    text: str

    def to_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "value": self.value,
            "points_to": self.points_to,
            "text": self.text,
        }


@dataclass(frozen=True)
class CandidateFacts:
    """What the triage reads about one candidate of the scan's table."""

    key: str
    name: str
    kind: str
    family: str  # the attribute's, lexicon's or metadata column's name; the part for words
    phrase: str | None  # the words of a token or n-gram (or a frequent-words value)
    label_rank: int | None
    bracketed: bool = False  # the texts write the word in brackets ("[NAME]")
    names: frozenset[str] = frozenset()  # the words the texts write as names


#: Words that turn a feeling around: with labels that name feelings they may be signal.
NEGATIONS = frozenset("not no never nothing nobody none neither nor without n't cannot".split())
_TURNS = (
    "Negation turns the feeling a text expresses around; with labels that name feelings it may "
    "be signal, so a person decides."
)


def kind_evidence(facts: CandidateFacts, *, feelings: bool = False) -> list[Evidence]:
    """What the candidate's kind and its words' class say (``feelings``: the labels name
    feelings, where negation is no longer content-free)."""
    kind = facts.kind
    if feelings and _negation(facts):
        return [Evidence("kind", "negation", None, _TURNS)]
    if kind == "partial-input":
        return [
            Evidence(
                "kind",
                kind,
                SHORTCUT,
                "One part of a pair predicts the label alone; "
                "a partial-input feature is a shortcut by definition.",
            )
        ]
    if kind == "metadata":
        return [
            Evidence(
                "kind",
                kind,
                SHORTCUT,
                f"A value of the column '{facts.family}', "
                "not of the text: the label's meaning is in the text.",
            )
        ]
    if kind == "surface":
        return [
            Evidence(
                "kind",
                kind,
                SHORTCUT,
                "A surface property (punctuation, casing, "
                "length, readability), not what the text says.",
            )
        ]
    if kind == "lexicon" and facts.family in CONTENT_FREE_LEXICONS:
        what = CONTENT_FREE_LEXICONS[facts.family]
        return [
            Evidence(
                "kind",
                f"lexicon of {what}",
                SHORTCUT,
                f"Mentions {what}, which rarely make a label what it is.",
            )
        ]
    if kind == "attribute" and facts.family in GRAMMATICAL_ATTRIBUTES:
        what = GRAMMATICAL_ATTRIBUTES[facts.family]
        return [
            Evidence(
                "kind",
                f"grammar: {what}",
                SHORTCUT,
                f"Whether a row has {what}: its grammar, not its meaning.",
            )
        ]
    if facts.phrase is None:
        return []
    found = phrase_class(facts.phrase, bracketed=facts.bracketed, names=facts.names)
    if found is None:
        return [
            Evidence(
                "word class",
                "content",
                None,
                f"'{facts.phrase}' is a content word "
                "or phrase: what it means may be the label's signal.",
            )
        ]
    what = CLASS_NAMES[found]
    return [
        Evidence(
            "word class",
            what,
            SHORTCUT,
            f"'{facts.phrase}' is a {what}; such words rarely make a label what it is.",
        )
    ]


def _negation(facts: CandidateFacts) -> bool:
    if facts.kind == "attribute":
        return facts.family == "negation"
    if facts.phrase is None:
        return False
    words = facts.phrase.lower().replace("\u2019", "'").split()
    return any(word in NEGATIONS or word.endswith("n't") for word in words)


def feelings_task(names: Mapping[int, str]) -> bool:
    """Whether the labels name feelings (emotions, sentiment): two or more names, and at least
    half of them, carry a VADER rating. NLI's names do not ("contradiction" alone is rated)."""
    rated = [name for name in names.values() if carries(name_valence(name))]
    return len(rated) >= 2 and 2 * len(rated) >= len(names)


def feeling_evidence(facts: CandidateFacts, names: Mapping[int, str] | None) -> list[Evidence]:
    """The feeling a candidate's words carry against its label's name's (sentiment, emotions)."""
    if facts.phrase is None:
        return []
    rating = valence(facts.phrase)
    if not carries(rating):
        return []
    assert rating is not None
    if not names:
        return [
            Evidence(
                "feeling",
                rating,
                None,
                f"'{facts.phrase}' carries a feeling (VADER "
                f"{rating:+.1f}); it is signal if the label names that feeling "
                "(give the labels' names).",
            )
        ]
    name = names.get(facts.label_rank) if facts.label_rank is not None else None
    if name is None or not feelings_task(names) or not carries(name_valence(name)):
        return []
    named = name_valence(name)
    assert named is not None
    if (rating > 0) == (named > 0):
        return [
            Evidence(
                "feeling",
                rating,
                SIGNAL,
                f"'{facts.phrase}' carries the feeling its "
                f"label '{name}' names (VADER {rating:+.1f} and {named:+.1f}).",
            )
        ]
    return [
        Evidence(
            "feeling",
            rating,
            None,
            f"'{facts.phrase}' carries the opposite feeling "
            f"to its label '{name}' (VADER {rating:+.1f} against {named:+.1f}).",
        )
    ]


def nearness_evidence(facts: CandidateFacts, near: Nearness, names: Mapping[int, str]) -> Evidence:
    """How near the candidate's words are to its label's name against the other names."""
    name = names.get(facts.label_rank) if facts.label_rank is not None else "?"
    if near.related:
        return Evidence(
            "label-name nearness",
            round(near.margin, 3),
            SIGNAL,
            f"'{facts.phrase}' is nearer '{name}' than any other label's name "
            f"(cosine {near.cosine:.2f}, {near.margin:+.2f} over the next).",
        )
    return Evidence(
        "label-name nearness",
        round(near.margin, 3),
        None,
        f"'{facts.phrase}' is not clearly nearer '{name}' than the other labels' "
        f"names (cosine {near.cosine:.2f}, {near.margin:+.2f} over the next; "
        f"signal needs {MIN_MARGIN:+.2f}).",
    )


def group_from(evidence: list[Evidence]) -> str:
    """Kind or word-class evidence of a shortcut decides (a discourse marker stays one even when
    VADER rates it, as "honestly"); otherwise evidence of signal; otherwise a person decides.
    An LLM judge settles what the rest leaves open, but its "shortcut" against measured signal
    (the word's nearness to the label's name) is left to a person."""
    points = {item.points_to for item in evidence}
    # Two readings of one question (is the word the label's meaning?) that disagree are for a
    # person; the judge alone is asked only about words nothing else settled.
    shortcut_by = {item.name for item in evidence if item.points_to == SHORTCUT}
    if shortcut_by == {LLM_JUDGE} and SIGNAL in points:
        return JUDGEMENT
    if SHORTCUT in points:
        return SHORTCUT
    if SIGNAL in points:
        return SIGNAL
    return JUDGEMENT
