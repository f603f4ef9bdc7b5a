"""The injector contract: a pure transform (texts, labels, parameters, seed) -> texts with a cue.

An injector first removes any pre-existing occurrence of its vocabulary (:meth:`Shortcut.clean`),
may then look at each whole input table once (:meth:`Shortcut.prepare`: the style shortcuts rewrite
every row there and drop the rows whose rewrite failed), and then adds the cue in two steps:

- :meth:`Shortcut.draw` makes every random decision of a split from its label ranks alone (which
  rows carry side A, which phrase, which sentence), as arrays with one entry per row;
- :meth:`Shortcut.render` writes the texts of any slice of rows from those draws.

The split lets a builder render a large table chunk by chunk with exactly the output of one pass;
:meth:`Shortcut.inject` does both at once for callers that hold all texts.
:meth:`Shortcut.observe` then finds the cue in the output texts, so the rates a manifest reports
are measured, not assumed.
"""

from __future__ import annotations

import inspect
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

import numpy as np

from shortcutlab.data.labels import LabelSpace
from shortcutlab.data.loading import LoadedTable
from shortcutlab.shortcuts.schedule import cue_probabilities, draw_cue

TRAIN_ROLE, TEST_ROLE = "train", "test"
#: A cue's place in an output text: ``[start, end)`` character offsets.
Span = tuple[int, int]
# What Shortcut.observe returns for a row whose text cannot show which side it got (the two sides'
# material is identical for that row, e.g. a distractor review that is in both aspects' pools).
UNDECIDABLE = -1


@dataclass(frozen=True)
class SplitPlan:
    """What the builder asks of an injector for one split.

    ``role`` picks the vocabulary side (``"train"`` or ``"test"``: the category shortcut and the
    concept distractors use disjoint pools for the two); ``anti`` reverses the label schedule;
    ``row_ids`` are the rows' ids in their input table (None: positions), for injectors that look
    per-row material up (the style shortcuts' rewrites).
    """

    ranks: np.ndarray
    labels: LabelSpace
    strength: float
    strength_mode: str = "mix"
    schedule: tuple[float, ...] | None = None
    anti: bool = False
    role: str = TRAIN_ROLE
    sampling: str = "exact"
    row_ids: np.ndarray | None = None

    def take(self, rows: slice | np.ndarray) -> SplitPlan:
        """The plan of a subset of the split's rows (for chunked rendering)."""
        return replace(
            self,
            ranks=self.ranks[rows],
            row_ids=None if self.row_ids is None else self.row_ids[rows],
        )

    def ids(self) -> np.ndarray:
        """The rows' ids in their input table (positions when the plan has none)."""
        return self.row_ids if self.row_ids is not None else np.arange(len(self.ranks))


@dataclass(frozen=True)
class RowDraws:
    """Every random decision of one split, one entry per row: whether the row carries side A of
    the cue, and the numbers :meth:`Shortcut.render` needs (a phrase index, a sentence choice...)."""

    side_a: np.ndarray
    numbers: dict[str, np.ndarray] = field(default_factory=dict)

    def take(self, rows: slice | np.ndarray) -> RowDraws:
        return RowDraws(self.side_a[rows], {k: v[rows] for k, v in self.numbers.items()})


@dataclass
class Injection:
    """Texts with the cue, what was inserted per row, and the per-label cue rates.

    ``assigned_rate`` is the share of rows per label that the random draw gave the cue; the rate
    the texts actually show is measured separately with :meth:`Shortcut.observe`. ``details`` is an
    optional JSON-able record for the split's manifest entry. ``cue_spans`` holds, per row, where
    the inserted cue sits in its text (None for shortcuts that rewrite whole texts).
    """

    texts: list[str]
    shortcut: list[str]
    target_rate: np.ndarray
    assigned_rate: np.ndarray
    details: dict[str, Any] | None = None
    cue_spans: list[list[Span]] | None = None


@dataclass
class RenderedColumns:
    """Rendered rows as Arrow arrays: the texts and the ``shortcut`` column, and where each cue
    went: per row (``spans``), or at most one span per row as two arrays (``span_start`` and
    ``span_end``, -1 where a row has none); no spans for a shortcut that inserts no cue."""

    texts: Any
    values: Any
    spans: list[list[Span]] | None = None
    span_start: np.ndarray | None = None
    span_end: np.ndarray | None = None


@dataclass(frozen=True)
class Cleaning:
    """Texts without pre-existing cue occurrences, and per row how many were removed or left alone.

    ``kept`` counts occurrences of the cue vocabulary deliberately left in place because they are
    not the cue as the shortcut inserts it (e.g. "in truth" mid-sentence for the synonym shortcut).
    """

    texts: Sequence[str]  # a list, or a TextColumn for one given (its changed rows known)
    removed: np.ndarray
    kept: np.ndarray

    @classmethod
    def unchanged(cls, texts: Sequence[str]) -> Cleaning:
        zeros = np.zeros(len(texts), dtype=np.int64)
        return cls(texts=list(texts), removed=zeros, kept=zeros.copy())


@dataclass(frozen=True)
class Preparation:
    """What :meth:`Shortcut.prepare` decided for one input table.

    ``keep`` is a boolean mask over the table's rows (None keeps them all); ``record`` a JSON-able
    summary for the benchmark manifest (None adds nothing).
    """

    keep: np.ndarray | None = None
    record: dict[str, Any] | None = None


def rates_by_label(
    hit: np.ndarray, ranks: np.ndarray, n_labels: int, where: np.ndarray | None = None
) -> np.ndarray:
    """Mean of the boolean ``hit`` per label rank over the rows in ``where`` (NaN: no such rows)."""
    weights = np.ones(len(ranks)) if where is None else np.asarray(where, dtype=np.float64)
    totals = np.bincount(ranks, weights=weights, minlength=n_labels)
    hits = np.bincount(ranks, weights=hit * weights, minlength=n_labels)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(totals > 0, hits / np.maximum(totals, 1), np.nan)


def check_observed(
    observed: np.ndarray, recorded: np.ndarray, row_ids: Sequence[Any], *, shortcut: str, split: str
) -> None:
    """Raise if a row's text holds the cue more than once, or holds it and its record says not.

    Both are bugs in the injector (the inputs were cleaned first), hence a RuntimeError.
    """
    for row in np.flatnonzero(observed > 1).tolist()[:1]:
        raise RuntimeError(
            f"Bug: the {shortcut} cue occurs {int(observed[row])} times in {split} row "
            f"{row_ids[row]}; an injected row must hold it once."
        )
    wrong = np.flatnonzero((observed != UNDECIDABLE) & ((observed > 0) != recorded))
    for row in wrong.tolist()[:1]:
        holds = "holds" if observed[row] > 0 else "lacks"
        says = "says it has it" if recorded[row] else "says it has not"
        raise RuntimeError(
            f"Bug: the text of {split} row {row_ids[row]} {holds} the {shortcut} cue but its "
            f"shortcut column {says}."
        )


class Shortcut(ABC):
    """Base of every injector. Constructors only store their keyword parameters; what a shortcut
    is (its family, whether it inserts its cue) is declared on its registry line
    (shortcuts/__init__.py)."""

    name: ClassVar[str]
    # Whether :meth:`prepare` must see each whole cleaned table (the builder skips it otherwise).
    needs_preparation: ClassVar[bool] = False

    def cached(self, key: Any, make: Callable[[], Any]) -> Any:
        """What ``make`` builds for ``key`` (a matcher for some options), built once per injector:
        a build cleans and observes batch after batch with the same options."""
        cache = self.__dict__.setdefault("_cache", {})
        if key not in cache:
            cache[key] = make()
        return cache[key]

    def get_params(self) -> dict[str, Any]:
        """The constructor parameters, for manifests and run records (scikit-learn style)."""
        names = [p for p in inspect.signature(type(self).__init__).parameters if p != "self"]
        return {name: _jsonable(getattr(self, name)) for name in names if not name.startswith("_")}

    def cue_phrases(self) -> tuple[str, ...]:
        """The phrases this shortcut inserts as its cue when they are a fixed set (single-term,
        synonym), else (): what a data-level repair removes by default."""
        return ()

    def clean(self, texts: Sequence[str]) -> Cleaning:
        """Remove pre-existing occurrences of the cue vocabulary, with per-row counts."""
        return Cleaning.unchanged(texts)

    def validate(self, labels: LabelSpace) -> None:  # noqa: B027 - optional hook
        """Raise a ConfigError/DataError early if the injector cannot work with these labels."""

    def prepare(self, table: LoadedTable, *, role: str) -> Preparation:
        """See a whole cleaned input table (train or test) once, before any split is carved.

        The builder drops the rows outside ``keep`` from every split made from the table, so test,
        anti-test and original test stay paired and the cue is assigned to the remaining rows only.
        """
        return Preparation()

    @abstractmethod
    def target_rate(self, plan: SplitPlan) -> np.ndarray:
        """Per label, the probability that a row carries side A of the cue."""

    @abstractmethod
    def draw(self, plan: SplitPlan, seed: np.random.SeedSequence) -> RowDraws:
        """Make every random decision of the split described by ``plan``."""

    @abstractmethod
    def render(
        self, texts: Sequence[str], draws: RowDraws, plan: SplitPlan
    ) -> tuple[list[str], list[str]]:
        """The texts of these rows with the cue, and the per-row record of what was inserted.

        ``draws`` and ``plan`` cover exactly these rows (see :meth:`RowDraws.take`).
        """

    def render_with_spans(
        self, texts: Sequence[str], draws: RowDraws, plan: SplitPlan
    ) -> tuple[list[str], list[str], list[list[Span]] | None]:
        """:meth:`render`, plus per row the spans of the inserted cue in the output text (None:
        this shortcut inserts no cue that a span could hold)."""
        new_texts, values = self.render(texts, draws, plan)
        return new_texts, values, None

    def render_columns(self, texts: Any, draws: RowDraws, plan: SplitPlan) -> RenderedColumns:
        """:meth:`render_with_spans` over an Arrow string array, as Arrow arrays (a shortcut may
        render whole columns with Arrow kernels instead, to the same strings)."""
        from shortcutlab.data.columns import string_array

        new_texts, values, spans = self.render_with_spans(texts.to_pylist(), draws, plan)
        return RenderedColumns(string_array(new_texts), string_array(values), spans=spans)

    def observe_rendered(
        self, before: Any, rendered: RenderedColumns, draws: RowDraws, plan: SplitPlan
    ) -> np.ndarray:
        """:meth:`observe` of the rendered texts (``before``: the texts the cue went into, for a
        shortcut that can count in the parts it knows it wrote)."""
        return self.observe(rendered.texts.to_pylist(), plan)

    def details(self, draws: RowDraws, plan: SplitPlan) -> dict[str, Any] | None:
        """An optional JSON-able record of the split for its manifest entry."""
        return None

    def inject(
        self, texts: Sequence[str], plan: SplitPlan, seed: np.random.SeedSequence
    ) -> Injection:
        """Return the texts with the cue added according to ``plan`` (draw, then render)."""
        draws = self.draw(plan, seed)
        new_texts, values, spans = self.render_with_spans(texts, draws, plan)
        return Injection(
            texts=new_texts,
            shortcut=values,
            target_rate=self.target_rate(plan),
            assigned_rate=rates_by_label(draws.side_a, plan.ranks, len(plan.labels)),
            details=self.details(draws, plan),
            cue_spans=spans,
        )

    @abstractmethod
    def observe(self, texts: Sequence[str], plan: SplitPlan) -> np.ndarray:
        """Per output text, how often it holds the side-A cue (:data:`UNDECIDABLE`: cannot tell)."""

    @abstractmethod
    def recorded_cue(self, values: Sequence[str], plan: SplitPlan) -> np.ndarray:
        """Per row, whether its ``shortcut`` column value says the row got the side-A cue."""

    def recorded_cue_of(self, values: Any, plan: SplitPlan) -> np.ndarray:
        """:meth:`recorded_cue` of an Arrow column of values (what a build renders)."""
        return self.recorded_cue(values.to_pylist(), plan)


class InsertingShortcut(Shortcut):
    """A shortcut that inserts its cue as text: it says where while rendering, so the spans are
    exact (a diff of the texts could not tell "Honestly, He said" from a cue "onestly, H").
    Its registry line declares ``inserts_cue`` (shortcuts/__init__.py)."""

    @abstractmethod
    def render_with_spans(
        self, texts: Sequence[str], draws: RowDraws, plan: SplitPlan
    ) -> tuple[list[str], list[str], list[list[Span]]]:
        """The texts, the per-row record, and per row the spans of every inserted cue ([] none)."""

    def render(
        self, texts: Sequence[str], draws: RowDraws, plan: SplitPlan
    ) -> tuple[list[str], list[str]]:
        new_texts, values, _ = self.render_with_spans(texts, draws, plan)
        return new_texts, values


class BinaryCueShortcut(Shortcut):
    """A shortcut whose cue is one of two sides per row: side A with probability P_i, else B.

    Subclasses say how to render each side (:meth:`render`, with the numbers of
    :meth:`render_draws`); the label schedule, strength and anti-test reversal are handled here once
    for all of them.
    """

    def target_rate(self, plan: SplitPlan) -> np.ndarray:
        return cue_probabilities(
            len(plan.labels),
            strength=plan.strength,
            mode=plan.strength_mode,
            schedule=plan.schedule,
            reverse=plan.anti,
        )

    def draw(self, plan: SplitPlan, seed: np.random.SeedSequence) -> RowDraws:
        assign_seed, render_seed = seed.spawn(2)  # render choices never shift the assignment
        side_a = draw_cue(
            plan.ranks,
            self.target_rate(plan),
            np.random.default_rng(assign_seed),
            sampling=plan.sampling,
        )
        numbers = self.render_draws(len(plan.ranks), plan, np.random.default_rng(render_seed))
        return RowDraws(side_a, numbers)

    def render_draws(
        self, n: int, plan: SplitPlan, rng: np.random.Generator
    ) -> dict[str, np.ndarray]:
        """The random numbers :meth:`render` needs, one entry per row (none by default)."""
        return {}


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    if hasattr(value, "to_json"):
        return value.to_json()
    return repr(value)
