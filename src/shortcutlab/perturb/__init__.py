"""Perturbations: seeded, deterministic edits of test texts for robustness checks.

Look one up by name with ``PERTURBATIONS.get("typos-keyboard")``, build one from parameters with
:func:`make_perturbation`, or run one with :func:`perturb`. Each registry line declares ``kind``
(``"INV"``: the gold label should stay; ``"DIR"``: the prediction should move to
:attr:`Perturbed.expected`) and ``needs`` (``""``, or the optional extra or download it needs).

It imports ``data``, ``shortcuts`` and the bottom layer, never ``families`` or ``cli``.

Examples:
    >>> import numpy as np
    >>> perturb("case-upper", ["Good film.", "123"], np.array([1, 0]), label_values=["neg", "pos"],
    ...         seed=0)
    Perturbed(texts=['GOOD FILM.', '123'], changed=array([ True, False]), expected=None)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from shortcutlab.perturb.base import NO_EXPECTATION, Perturbation, Perturbed
from shortcutlab.registry import Registry

#: What each perturbation declares on its registry line (readable without importing it).
PERTURBATION_CAPABILITIES: dict[str, Any] = {"kind": "INV", "needs": ""}
PERTURBATION_KINDS = ("INV", "DIR")

PERTURBATIONS: Registry[type[Perturbation]] = Registry(
    "perturbation", capabilities=PERTURBATION_CAPABILITIES
)
PERTURBATIONS.add("case-upper", "shortcutlab.perturb.case:UpperCase")
PERTURBATIONS.add("case-lower", "shortcutlab.perturb.case:LowerCase")
PERTURBATIONS.add("case-title", "shortcutlab.perturb.case:TitleCase")
PERTURBATIONS.add("typos-keyboard", "shortcutlab.perturb.typos:KeyboardTypos")
PERTURBATIONS.add("typos-swap", "shortcutlab.perturb.typos:CharSwap")
PERTURBATIONS.add("typos-ocr", "shortcutlab.perturb.typos:OcrTypos")
PERTURBATIONS.add("punctuation-add", "shortcutlab.perturb.spacing:AddPunctuation")
PERTURBATIONS.add("punctuation-strip", "shortcutlab.perturb.spacing:StripPunctuation")
PERTURBATIONS.add("whitespace-spaces", "shortcutlab.perturb.spacing:ExtraSpaces")
PERTURBATIONS.add("whitespace-newlines", "shortcutlab.perturb.spacing:Newlines")
PERTURBATIONS.add("whitespace-tabs", "shortcutlab.perturb.spacing:Tabs")
PERTURBATIONS.add("contractions-expand", "shortcutlab.perturb.swaps:ExpandContractions")
PERTURBATIONS.add("contractions-contract", "shortcutlab.perturb.swaps:Contract")
PERTURBATIONS.add("spelling-american", "shortcutlab.perturb.swaps:Americanize")
PERTURBATIONS.add("spelling-british", "shortcutlab.perturb.swaps:Britishize")
PERTURBATIONS.add("gender-swap", "shortcutlab.perturb.swaps:GenderSwap")
PERTURBATIONS.add("names-swap", "shortcutlab.perturb.swaps:NameSwap")
PERTURBATIONS.add("locations-swap", "shortcutlab.perturb.swaps:LocationSwap")
PERTURBATIONS.add("numbers-to-words", "shortcutlab.perturb.numbers:NumbersToWords")
PERTURBATIONS.add("number-change", "shortcutlab.perturb.numbers:NumberChange")
PERTURBATIONS.add("sentence-prefix", "shortcutlab.perturb.sentences:PrefixSentence")
PERTURBATIONS.add("sentence-suffix", "shortcutlab.perturb.sentences:SuffixSentence")
PERTURBATIONS.add("negation-add", "shortcutlab.perturb.negation:AddNegation", kind="DIR")
PERTURBATIONS.add("negation-remove", "shortcutlab.perturb.negation:RemoveNegation", kind="DIR")
PERTURBATIONS.add("shortcut-insert", "shortcutlab.perturb.shortcut_insert:ShortcutInsert")
PERTURBATIONS.add(
    "word-swap-mlm",
    "shortcutlab.perturb.masked_lm:MaskedWordSwap",
    needs="transformers and a fill-mask checkpoint saved on disk (model=FOLDER)",
)

#: ``shortcut:NAME`` names ``shortcut-insert`` with ``shortcut=NAME`` (a Maze cue as a class).
SHORTCUT_PREFIX = "shortcut:"


def perturbation_names() -> list[str]:
    """Every name :func:`perturb` takes: the registered classes, then ``shortcut:NAME`` for each
    registered shortcut that inserts its cue."""
    from shortcutlab.perturb.shortcut_insert import inserting_shortcuts

    return [*PERTURBATIONS.names(), *(SHORTCUT_PREFIX + name for name in inserting_shortcuts())]


def resolve(name: str, params: Mapping[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
    """The registered class and parameters a name stands for (``shortcut:NAME`` ->
    ``shortcut-insert`` with ``shortcut=NAME``)."""
    if isinstance(name, str) and name.startswith(SHORTCUT_PREFIX):
        return "shortcut-insert", {**dict(params or {}), "shortcut": name[len(SHORTCUT_PREFIX) :]}
    return name, dict(params or {})


def make_perturbation(name: str, params: Mapping[str, Any] | None = None) -> Perturbation:
    """Instantiate the perturbation ``name`` with ``params`` mapped 1:1 onto its constructor."""
    return PERTURBATIONS.create(*resolve(name, params))


def perturb(
    name: str,
    texts: Sequence[str],
    labels: np.ndarray,
    *,
    label_values: Sequence[Any],
    seed: int,
    params: Mapping[str, Any] | None = None,
) -> Perturbed:
    """The texts perturbed by the perturbation ``name`` with ``params`` under ``seed``."""
    perturbation = make_perturbation(name, params)
    return perturbation.apply(
        texts, np.asarray(labels, dtype=np.int64), label_values=label_values, seed=seed
    )


__all__ = [
    "NO_EXPECTATION",
    "PERTURBATIONS",
    "PERTURBATION_CAPABILITIES",
    "PERTURBATION_KINDS",
    "Perturbation",
    "Perturbed",
    "SHORTCUT_PREFIX",
    "make_perturbation",
    "perturb",
    "perturbation_names",
    "resolve",
]
