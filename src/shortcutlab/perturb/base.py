"""The perturbation contract: a pure transform (texts, label ranks, parameters, seed) -> texts.

A perturbation changes what should not matter to a classifier (INV: casing, typos, a swapped
name) or what should (DIR: an added negation, with the label the prediction should move to).
Rows it cannot change are returned as they were and marked unchanged, so a robustness drop is
measured on the rows that were perturbed only.

Randomness is counter-based (:func:`uniforms`): the draw for character or token ``slot`` of row
``row`` depends on (seed, the perturbation's name and parameters, row, slot) alone, so whole
tables are perturbed with array operations and a row's output never depends on its neighbours.
"""

from __future__ import annotations

import hashlib
import inspect
import json
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from shortcutlab._version import __version__
from shortcutlab.params import INT64_MAX, parameter, refuse

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX_1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX_2 = np.uint64(0x94D049BB133111EB)
NO_EXPECTATION = -1  # Perturbed.expected for a row whose label has no declared direction


@dataclass(frozen=True)
class Perturbed:
    """One output text per input row in the same order, whether it changed, and for a DIR
    perturbation the label rank the prediction should move to (:data:`NO_EXPECTATION`: none)."""

    texts: list[str]
    changed: np.ndarray
    expected: np.ndarray | None = None

    @classmethod
    def compared(
        cls, before: Sequence[str], after: list[str], expected: np.ndarray | None = None
    ) -> Perturbed:
        """The outputs ``after`` of the inputs ``before``, ``changed`` read off the texts."""
        changed = np.fromiter(
            (a != b for a, b in zip(before, after, strict=True)), bool, len(after)
        )
        return cls(texts=after, changed=changed, expected=expected)


def _mix(values: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser over uint64 arrays (wrapping arithmetic is intended)."""
    values = (values ^ (values >> np.uint64(30))) * _MIX_1
    values = (values ^ (values >> np.uint64(27))) * _MIX_2
    return values ^ (values >> np.uint64(31))


def stream_key(seed: int, purpose: str) -> np.uint64:
    """The one place seeds are derived: a 64-bit key from the run's seed and a purpose string
    (a perturbation's name and parameters), through numpy's SeedSequence."""
    digest = int.from_bytes(hashlib.blake2b(purpose.encode(), digest_size=8).digest(), "little")
    return np.random.SeedSequence([seed, digest]).generate_state(1, np.uint64)[0]


def uniforms(key: np.uint64, rows: np.ndarray, slots: np.ndarray | int = 0) -> np.ndarray:
    """Uniform floats in [0, 1), one per (row, slot) pair, from the stream ``key`` alone."""
    rows = np.asarray(rows).astype(np.uint64)
    slots = np.asarray(slots).astype(np.uint64)
    with np.errstate(over="ignore"):
        state = _mix(_mix(key + rows * _GOLDEN) + (slots + np.uint64(1)) * _GOLDEN)
    return (state >> np.uint64(11)).astype(np.float64) * 2.0**-53


class Perturbation(ABC):
    """Base of every perturbation. Constructors only store their keyword parameters and check
    them; what a perturbation is (INV or DIR, what it needs) is declared on its registry line
    (perturb/__init__.py)."""

    name: ClassVar[str]

    def __init__(self) -> None:  # noqa: B027 - a perturbation may have no parameters
        """A perturbation without parameters (its registry line then lists none)."""

    def get_params(self) -> dict[str, Any]:
        """The constructor parameters, for manifests and run records (scikit-learn style)."""
        parameters = inspect.signature(type(self).__init__).parameters.values()
        named = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
        names = [p.name for p in parameters if p.kind in named and p.name != "self"]
        return {name: getattr(self, name) for name in names}

    def key(self, seed: int) -> np.uint64:
        """The random stream of this perturbation with these parameters under ``seed``."""
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= INT64_MAX:
            raise refuse(parameter("seed", self.name), "a non-negative integer", seed)
        params = json.dumps(self.get_params(), sort_keys=True, default=repr)
        return stream_key(seed, f"{self.name}:{params}")

    def check(self, label_values: Sequence[Any]) -> None:  # noqa: B027 - optional hook
        """Raise a ConfigError naming the bad parameter before any text is touched (constructors
        only store their parameters, like scikit-learn's)."""

    def apply(
        self,
        texts: Sequence[str],
        labels: np.ndarray,
        *,
        label_values: Sequence[Any],
        seed: int,
    ) -> Perturbed:
        """The perturbed texts of these rows (``labels``: their label ranks into ``label_values``)."""
        self.check(label_values)
        key = self.key(seed)
        return self.perturbed(list(texts), np.asarray(labels), label_values, key)

    @abstractmethod
    def perturbed(
        self, texts: list[str], labels: np.ndarray, label_values: Sequence[Any], key: np.uint64
    ) -> Perturbed:
        """:meth:`apply` after the checks, with the random stream ``key`` of this seed."""

    def provenance(self) -> dict[str, str]:
        """What produced the output: the library and its version, and any word list's source."""
        return {"library": "shortcutlab", "version": __version__}


class TextwisePerturbation(Perturbation):
    """A deterministic edit of each text alone (no randomness, no labels)."""

    @abstractmethod
    def edit(self, text: str) -> str:
        """The perturbed text."""

    def perturbed(
        self, texts: list[str], labels: np.ndarray, label_values: Sequence[Any], key: np.uint64
    ) -> Perturbed:
        return Perturbed.compared(texts, [self.edit(text) for text in texts])
