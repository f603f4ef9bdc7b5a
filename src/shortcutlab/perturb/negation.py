"""Negation added or removed: DIR perturbations, whose prediction should move to a declared label
(CheckList's add_negation / remove_negation).

The label a negated text should get is declared with ``expect``: a mapping from each label to the
label its negation should get (``{"positive": "negative", "negative": "positive"}``), or
``"flip"`` for a two-label space. Labels missing from the mapping get no expectation (-1).
"""

from __future__ import annotations

import re
from abc import abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from shortcutlab.errors import ConfigError, listed
from shortcutlab.params import quoted
from shortcutlab.perturb.base import NO_EXPECTATION, Perturbation, Perturbed
from shortcutlab.perturb.words import in_case_of

FLIP = "flip"
# Copulas and modals: "is" -> "is not" reads as the negation whatever follows. Main verbs (have,
# do) are left alone: "I have a car" has no auxiliary to negate.
_NEGATABLE = "am is are was were can could will would should shall must might may"
_ADD = re.compile(rf"\b({'|'.join(_NEGATABLE.split())})\b(?!\s+not\b|n?['\u2019]t\b)", re.I)
# Negated auxiliaries, contracted or not; the irregular contractions first.
_IRREGULAR = {"can't": "can", "won't": "will", "shan't": "shall", "cannot": "can", "ain't": "is"}
_AUXILIARIES = f"{_NEGATABLE} do does did has have had need".split()
_REMOVE = re.compile(
    r"\b(?:(can['\u2019]t|won['\u2019]t|shan['\u2019]t|cannot|ain['\u2019]t)"
    rf"|({'|'.join(_AUXILIARIES)})(?:n['\u2019]t|\s+not)\b)",
    re.I,
)


def expected_ranks(expect: Any, label_values: Sequence[Any], owner: str) -> np.ndarray:
    """Per label rank, the rank a perturbed text should get (-1: none), from ``expect``."""
    values = list(label_values)
    example = "{'positive': 'negative', 'negative': 'positive'}"
    if expect == FLIP and len(values) == 2:
        return np.array([1, 0])
    if not isinstance(expect, Mapping):
        raise ConfigError(
            f"The 'expect' parameter of {owner} must map each label to the label a perturbed "
            f"text should get, e.g. {example}, or be 'flip' for two labels; the labels are "
            f"{listed(values, show=repr)}. Got {quoted(expect)} instead."
        )
    rank_of = {str(value): rank for rank, value in enumerate(values)}
    unknown = [k for k in [*expect, *expect.values()] if str(k) not in rank_of]
    if unknown:
        raise ConfigError(
            f"The 'expect' parameter of {owner} names {quoted(unknown[0])}, which is not a label; "
            f"the labels are {listed(values, show=repr)}."
        )
    ranks = np.full(len(values), NO_EXPECTATION, dtype=np.int64)
    for source, target in expect.items():
        ranks[rank_of[str(source)]] = rank_of[str(target)]
    return ranks


class _Negation(Perturbation):
    def __init__(self, expect: Mapping[Any, Any] | str | None = None) -> None:
        self.expect = expect

    def check(self, label_values: Sequence[Any]) -> None:
        expected_ranks(self.expect, label_values, self.name)

    @abstractmethod
    def edit(self, text: str) -> str:
        """The text with its negation added or removed."""

    def perturbed(
        self, texts: list[str], labels: np.ndarray, label_values: Sequence[Any], key: np.uint64
    ) -> Perturbed:
        out = Perturbed.compared(texts, [self.edit(text) for text in texts])
        targets = expected_ranks(self.expect, label_values, self.name)[labels.astype(np.int64)]
        expected = np.where(out.changed, targets, NO_EXPECTATION)
        return Perturbed(texts=out.texts, changed=out.changed, expected=expected)


class AddNegation(_Negation):
    """ "not" put after the first copula or modal that is not negated yet ("is good" -> "is not
    good"; "can" -> "cannot"); a text without one stays.

    Args:
        expect: Each label -> the label the negated text should get, or 'flip' for two labels.
    """

    name = "negation-add"

    def edit(self, text: str) -> str:
        def negated(match: re.Match[str]) -> str:
            word = match[0]
            return word + "not" if word.lower() == "can" else f"{word} not"

        return _ADD.sub(negated, text, count=1)


class RemoveNegation(_Negation):
    """Every negated auxiliary made positive ("isn't" -> "is", "do not" -> "do", "can't" ->
    "can"); a text without one stays.

    Args:
        expect: Each label -> the label the text without negation should get, or 'flip' for two
            labels.
    """

    name = "negation-remove"

    def edit(self, text: str) -> str:
        def positive(match: re.Match[str]) -> str:
            if match[1]:
                plain = _IRREGULAR[match[1].lower().replace("\u2019", "'")]
                return in_case_of(match[1], plain)
            return match[2]

        return _REMOVE.sub(positive, text)
