"""Concept shortcuts: occurrence and correlation of a distractor aspect (Shortcut Maze, 2.2.3).

The primary task rates one aspect (the Beer data's palate); reviews of other aspects (aroma,
appearance) are prepended as distractors:

- ``concept-occurrence``: a review of aspect A with probability P_i, otherwise of aspect B, drawn
  uniformly from that aspect's pool regardless of its own rating.
- ``concept-correlation``: a review of one aspect whose rating equals the row's label with
  probability lambda (otherwise a uniformly random rating); the anti-test pairs rating i with
  rating (i + K/2) mod K, the paper's 0.4->0.8, 0.6->1.0, 0.8->0.4, 1.0->0.6.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from shortcutlab.data.labels import Label, LabelSpace
from shortcutlab.errors import (
    CLI,
    LISTED_NAMES,
    ConfigError,
    DataError,
    callers_terms,
    knob,
    listed,
)
from shortcutlab.params import quoted
from shortcutlab.shortcuts.base import (
    TEST_ROLE,
    UNDECIDABLE,
    BinaryCueShortcut,
    InsertingShortcut,
    RowDraws,
    Span,
    SplitPlan,
)
from shortcutlab.shortcuts.schedule import check_strength, draw_cue
from shortcutlab.shortcuts.text_ops import prepended


@dataclass(frozen=True)
class DistractorPool:
    """Reviews of one aspect, each rated on the task's label scale."""

    texts: tuple[str, ...]
    labels: tuple[Label, ...]
    source: str

    def to_json(self) -> dict[str, object]:
        return {"source": self.source, "rows": len(self.texts)}


@dataclass(frozen=True)
class Distractor:
    """A distractor aspect with separate pools for training and test splits."""

    name: str
    train: DistractorPool
    test: DistractorPool

    def pool(self, role: str) -> DistractorPool:
        return self.test if role == TEST_ROLE else self.train

    def to_json(self) -> dict[str, object]:
        return {"train": self.train.to_json(), "test": self.test.to_json()}


def _as_mapping(
    distractors: Mapping[str, Distractor] | Sequence[Distractor] | None,
) -> dict[str, Distractor]:
    if distractors is None:
        return {}
    if isinstance(distractors, Mapping):
        return dict(distractors)
    return {d.name: d for d in distractors}


def _no_distractors(shortcut: str, needed: str) -> DataError:
    given = (
        "--distractor NAME=PATH (and --test-distractor NAME=PATH)"
        if callers_terms() == CLI
        else knob("distractors")
    )
    return DataError(
        f"The {shortcut} shortcut needs distractor reviews for {needed}. Give them with "
        f"{given}, or use data with NAME_text/NAME_label columns such as the corpus from "
        "'shortcutlab generate'."
    )


def _pool_ranks(pool: DistractorPool, labels: LabelSpace, aspect: str) -> np.ndarray:
    return labels.ranks(list(pool.labels), where=f"The distractor pool '{aspect}' ({pool.source})")


class ConceptOccurrence(InsertingShortcut, BinaryCueShortcut):
    """Prepend a review of aspect A (side A, probability P_i) or of aspect B.

    Args:
        distractors: Reviews per aspect, from --distractor or NAME_text columns in builds.
        aspects: The two aspects A and B (default: the first two distractors).
    """

    name = "concept-occurrence"

    def __init__(
        self,
        distractors: Mapping[str, Distractor] | Sequence[Distractor] | None = None,
        aspects: Sequence[str] | None = None,
    ) -> None:
        self.distractors = _as_mapping(distractors)
        self.aspects = tuple(aspects) if aspects is not None else None

    def resolved_aspects(self) -> tuple[str, str]:
        available = list(self.distractors)
        if self.aspects is None:
            if len(available) < 2:
                raise _no_distractors(self.name, "two aspects (A and B)")
            return available[0], available[1]
        if len(self.aspects) != 2 or self.aspects[0] == self.aspects[1]:
            raise ConfigError(
                f"The 'aspects' parameter must name two different aspects. Got {quoted(list(self.aspects))} instead."
            )
        missing = [a for a in self.aspects if a not in self.distractors]
        if missing:
            raise ConfigError(
                f"The 'aspects' parameter names {listed(missing)}, which have no distractor reviews. "
                f"Available: {listed(available, limit=LISTED_NAMES) or 'none'}."
            )
        return self.aspects[0], self.aspects[1]

    def validate(self, labels: LabelSpace) -> None:
        for aspect in self.resolved_aspects():
            for role in ("train", "test"):
                if not self.distractors[aspect].pool(role).texts:
                    raise DataError(f"The distractor pool '{aspect}' for {role} splits is empty.")

    def render_draws(
        self, n: int, plan: SplitPlan, rng: np.random.Generator
    ) -> dict[str, np.ndarray]:
        pool_a, pool_b = self._pools(plan)
        return {
            "pick_a": rng.integers(len(pool_a.texts), size=n),
            "pick_b": rng.integers(len(pool_b.texts), size=n),
        }

    def _pools(self, plan: SplitPlan) -> tuple[DistractorPool, DistractorPool]:
        aspect_a, aspect_b = self.resolved_aspects()
        return self.distractors[aspect_a].pool(plan.role), self.distractors[aspect_b].pool(
            plan.role
        )

    def render_with_spans(
        self, texts: Sequence[str], draws: RowDraws, plan: SplitPlan
    ) -> tuple[list[str], list[str], list[list[Span]]]:
        aspect_a, aspect_b = self.resolved_aspects()
        pool_a, pool_b = self._pools(plan)
        side_a = draws.side_a.tolist()
        distractors = [
            pool_a.texts[a] if use_a else pool_b.texts[b]
            for use_a, a, b in zip(
                side_a,
                draws.numbers["pick_a"].tolist(),
                draws.numbers["pick_b"].tolist(),
                strict=True,
            )
        ]
        new_texts, spans = _prepend(distractors, texts)
        return new_texts, [aspect_a if use_a else aspect_b for use_a in side_a], spans

    def observe(self, texts: Sequence[str], plan: SplitPlan) -> np.ndarray:
        """1 where a text starts with a review from aspect A's pool, 0 where from aspect B's;
        UNDECIDABLE where it starts with reviews of both (the same review in both pools)."""
        aspects = self.resolved_aspects()
        index = self.cached(
            ("leading", plan.role, aspects),
            lambda: _LeadingReviews(
                [
                    (text, aspect)
                    for aspect in aspects
                    for text in self.distractors[aspect].pool(plan.role).texts
                ]
            ),
        )
        out = np.zeros(len(texts), dtype=np.int64)
        for row, text in enumerate(texts):
            found = index.tags(text)
            out[row] = UNDECIDABLE if len(found) > 1 else int(aspects[0] in found)
        return out

    def recorded_cue(self, values: Sequence[str], plan: SplitPlan) -> np.ndarray:
        aspect_a = self.resolved_aspects()[0]
        return np.asarray([value == aspect_a for value in values], dtype=bool)

    def get_params(self) -> dict[str, object]:
        return {
            "aspects": list(self.resolved_aspects()),
            "distractors": {k: v.to_json() for k, v in self.distractors.items()},
        }


class ConceptCorrelation(InsertingShortcut):
    """Prepend a review of ``aspect`` whose rating follows the label with probability lambda.

    Args:
        distractors: Reviews per aspect, from --distractor or NAME_text columns in builds.
        aspect: The aspect whose reviews are prepended (default: the first distractor).
    """

    name = "concept-correlation"

    def __init__(
        self,
        distractors: Mapping[str, Distractor] | Sequence[Distractor] | None = None,
        aspect: str | None = None,
    ) -> None:
        self.distractors = _as_mapping(distractors)
        self.aspect = aspect

    def resolved_aspect(self) -> str:
        if self.aspect is None:
            if not self.distractors:
                raise _no_distractors(self.name, "one aspect")
            return next(iter(self.distractors))
        if self.aspect not in self.distractors:
            raise ConfigError(
                f"The 'aspect' parameter names {quoted(self.aspect)}, which has no distractor reviews. "
                f"Available: {listed(self.distractors, limit=LISTED_NAMES) or 'none'}."
            )
        return self.aspect

    def validate(self, labels: LabelSpace) -> None:
        aspect = self.resolved_aspect()
        for role in ("train", "test"):
            pool = self.distractors[aspect].pool(role)
            present = set(_pool_ranks(pool, labels, aspect).tolist())
            missing = [str(labels.values[r]) for r in range(len(labels)) if r not in present]
            if missing:
                raise DataError(
                    f"The distractor pool '{aspect}' for {role} splits ({pool.source}) has no review "
                    f"rated {listed(missing)}; concept-correlation needs every rating."
                )

    @staticmethod
    def check_split_options(*, strength_mode: str, schedule: Sequence[float] | None) -> None:
        """Refuse the per-label schedule options: this cue follows the label with probability λ."""
        given = [f"strength_mode {quoted(strength_mode)}"] if strength_mode != "mix" else []
        given += ["a custom schedule"] if schedule is not None else []
        if given:
            raise ConfigError(
                "concept-correlation draws a rating that follows the label with probability λ "
                f"(Shortcut Maze 2.2.3) and has no per-label schedule, so {' and '.join(given)} "
                "cannot apply. Remove it (strength_mode mix is the default)."
            )

    def target_rate(self, plan: SplitPlan) -> np.ndarray:
        # A random rating equals the partner rating 1/K of the time.
        strength = check_strength("strength", plan.strength)
        k = len(plan.labels)
        return np.full(k, strength + (1.0 - strength) / k)

    def draw(self, plan: SplitPlan, seed: np.random.SeedSequence) -> RowDraws:
        self.check_split_options(strength_mode=plan.strength_mode, schedule=plan.schedule)
        strength = check_strength("strength", plan.strength)
        k, n = len(plan.labels), len(plan.ranks)
        assign_seed, render_seed = seed.spawn(2)
        assign = np.random.default_rng(assign_seed)
        partner = self._partners(plan)
        follows = draw_cue(plan.ranks, np.full(k, strength), assign, sampling=plan.sampling)
        random_rating = assign.integers(k, size=n)
        rating = np.where(follows, partner, random_rating)
        uniforms = np.random.default_rng(render_seed).random(n)
        return RowDraws(rating == partner, {"rating": rating, "pick": uniforms})

    def render_with_spans(
        self, texts: Sequence[str], draws: RowDraws, plan: SplitPlan
    ) -> tuple[list[str], list[str], list[list[Span]]]:
        aspect = self.resolved_aspect()
        pool = self.distractors[aspect].pool(plan.role)
        by_rating = self.cached(
            ("by_rating", plan.role, aspect, plan.labels),
            lambda: [
                np.flatnonzero(_pool_ranks(pool, plan.labels, aspect) == r)
                for r in range(len(plan.labels))
            ],
        )
        ratings = draws.numbers["rating"]
        chosen = np.zeros(len(texts), dtype=np.int64)
        for r in np.unique(ratings).tolist():
            candidates, rows = by_rating[r], np.flatnonzero(ratings == r)
            if len(candidates) == 0:
                raise DataError(
                    f"The distractor pool '{aspect}' has no review rated {plan.labels.values[r]}."
                )
            picks = (draws.numbers["pick"][rows] * len(candidates)).astype(np.int64)
            chosen[rows] = candidates[picks]
        new_texts, spans = _prepend([pool.texts[i] for i in chosen.tolist()], texts)
        names = [f"{aspect}:{value}" for value in plan.labels.values]
        return new_texts, [names[r] for r in ratings.tolist()], spans

    def observe(self, texts: Sequence[str], plan: SplitPlan) -> np.ndarray:
        """1 where the leading review's rating is the row's partner rating (its label, shifted by
        K/2 on the anti-test), 0 where not; UNDECIDABLE where the review text occurs in the pool
        with ratings on both sides of that question."""
        aspect = self.resolved_aspect()
        pool = self.distractors[aspect].pool(plan.role)

        def make() -> _LeadingReviews:
            ranks = _pool_ranks(pool, plan.labels, aspect).tolist()
            return _LeadingReviews(list(zip(pool.texts, ranks, strict=True)))

        index = self.cached(("leading", plan.role, aspect, plan.labels), make)
        out = np.zeros(len(texts), dtype=np.int64)
        for row, (text, partner) in enumerate(
            zip(texts, self._partners(plan).tolist(), strict=True)
        ):
            matches = {rank == partner for rank in index.tags(text)}
            out[row] = UNDECIDABLE if len(matches) > 1 else int(True in matches)
        return out

    def recorded_cue(self, values: Sequence[str], plan: SplitPlan) -> np.ndarray:
        aspect = self.resolved_aspect()
        expected = [f"{aspect}:{plan.labels.values[r]}" for r in self._partners(plan).tolist()]
        return np.asarray([v == e for v, e in zip(values, expected, strict=True)], dtype=bool)

    @staticmethod
    def _partners(plan: SplitPlan) -> np.ndarray:
        k = len(plan.labels)
        return (plan.ranks + k // 2) % k if plan.anti else plan.ranks

    def get_params(self) -> dict[str, object]:
        return {
            "aspect": self.resolved_aspect(),
            "distractors": {k: v.to_json() for k, v in self.distractors.items()},
        }


def _prepend(
    distractors: Sequence[str], texts: Sequence[str]
) -> tuple[list[str], list[list[Span]]]:
    return prepended([d.strip() for d in distractors], texts)


class _LeadingReviews:
    """Which pool reviews a text starts with, as :func:`_prepend` put them there, with their tags.

    A review ends where the text continues with a space (or ends), right after a character that
    ends some review (usually ". "), so only those places are looked up.
    """

    def __init__(self, entries: Sequence[tuple[str, object]]) -> None:
        self._tags: dict[str, set[object]] = {}
        for review, tag in entries:
            self._tags.setdefault(review.strip(), set()).add(tag)
        self._ends = sorted({r[-1] + " " for r in self._tags if r})
        self._lengths = {len(r) for r in self._tags}
        self._longest = max(self._lengths, default=0)

    def tags(self, text: str) -> set[object]:
        found = set(self._tags.get(text, ()))
        for end in self._ends:
            at = text.find(end, 0, self._longest + 1)
            while at != -1:
                if at + 1 in self._lengths:
                    found |= self._tags.get(text[: at + 1], set())
                at = text.find(end, at + 1, self._longest + 1)
        return found
