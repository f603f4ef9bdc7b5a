"""Label schedules and shortcut strength (Shortcut Maze, section 2.2.1).

For labels 0..K-1 the base probability of the cue is p_i = i/(K-1); the anti-test reverses it
(p_i -> p_{K-1-i}). The strength lambda scales the schedule in one of two ways:

- ``mix`` (default): P_i = lambda * p_i + (1 - lambda) * 0.5. The paper's *released* data follows this
  (GoEmotions single-term files: lambda = 0.8 gives 0.08-0.90, lambda = 0.6 gives 0.24-0.81).
- ``scale``: P_i = lambda * p_i, as the paper's text (section 2.2.1) describes it.

Examples:
    >>> cue_probabilities(5, strength=1.0).tolist()
    [0.0, 0.25, 0.5, 0.75, 1.0]
    >>> cue_probabilities(4, strength=0.6).round(3).tolist()
    [0.2, 0.4, 0.6, 0.8]
    >>> cue_probabilities(4, strength=0.6, mode="scale", reverse=True).round(3).tolist()
    [0.6, 0.4, 0.2, 0.0]
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from shortcutlab.errors import ConfigError
from shortcutlab.params import check_choice, quoted

STRENGTH_MODES = ("mix", "scale")
SAMPLING = ("exact", "bernoulli")


def check_strength(parameter: str, value: object) -> float:
    """Return ``value`` as a float in [0, 1] or raise a ConfigError naming ``parameter``."""
    ok = isinstance(value, int | float) and not isinstance(value, bool)
    if not ok or not (0.0 <= float(value) <= 1.0) or math.isnan(float(value)):  # type: ignore[arg-type]
        raise ConfigError(
            f"The {quoted(parameter)} parameter must be a float in [0, 1]. Got {quoted(value)} instead."
        )
    return float(value)  # type: ignore[arg-type]


def base_schedule(n_labels: int, schedule: Sequence[float] | None = None) -> np.ndarray:
    """The per-label base probabilities p_i: ``schedule`` if given, else i/(K-1)."""
    if n_labels < 2:
        raise ConfigError(f"A label schedule needs at least two labels. Got {n_labels}.")
    if schedule is None:
        return np.arange(n_labels, dtype=np.float64) / (n_labels - 1)
    values = [
        check_strength("schedule", float(p)) if isinstance(p, int | float) else p for p in schedule
    ]
    if len(values) != n_labels or not all(isinstance(v, float) for v in values):
        raise ConfigError(
            f"The 'schedule' parameter must give one probability in [0, 1] per label "
            f"({n_labels} values). Got {quoted(list(schedule))} instead."
        )
    return np.asarray(values, dtype=np.float64)


def cue_probabilities(
    n_labels: int,
    *,
    strength: float,
    mode: str = "mix",
    schedule: Sequence[float] | None = None,
    reverse: bool = False,
) -> np.ndarray:
    """Per-label probability P_i that a row carries the cue (the 'A' side of the shortcut)."""
    strength = check_strength("strength", strength)
    check_choice("strength_mode", mode, STRENGTH_MODES)
    base = base_schedule(n_labels, schedule)
    if reverse:
        base = base[::-1].copy()
    if mode == "mix":
        return strength * base + (1.0 - strength) * 0.5
    return strength * base


def draw_cue(
    ranks: np.ndarray,
    probabilities: np.ndarray,
    rng: np.random.Generator,
    *,
    sampling: str = "exact",
) -> np.ndarray:
    """Choose the rows that carry the cue: label ``i``'s rows each with probability P_i.

    ``bernoulli`` draws every row independently, as the paper describes. ``exact`` (default) gives
    each label exactly floor(P_i * n_i) cue rows, plus one more with probability equal to the
    fractional part, chosen uniformly: the same expected rate with no sampling noise, so a
    benchmark's realised rates match its targets even on small datasets.

    Examples:
        >>> ranks = np.repeat([0, 1, 2], 100)
        >>> cue = draw_cue(ranks, np.array([0.0, 0.5, 1.0]), np.random.default_rng(0))
        >>> [int(cue[ranks == r].sum()) for r in range(3)]
        [0, 50, 100]
    """
    check_choice("sampling", sampling, SAMPLING)
    if sampling == "bernoulli":
        return rng.random(len(ranks)) < probabilities[ranks]
    cue = np.zeros(len(ranks), dtype=bool)
    for label, p in enumerate(probabilities.tolist()):
        members = np.flatnonzero(ranks == label)
        expected = p * len(members)
        count = int(np.floor(expected)) + int(rng.random() < expected - np.floor(expected))
        cue[rng.permutation(members)[:count]] = True
    return cue
