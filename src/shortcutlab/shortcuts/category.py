"""The category shortcut (Shortcut Maze, section 2.2.1): "I wrote this review in {X}." prepended,
X a country with probability P_i, else a city; training and test draw from disjoint name lists.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyarrow.compute as pc

from shortcutlab.data.columns import int_array, numpy_of, string_array, text_scalar
from shortcutlab.errors import ConfigError, listed
from shortcutlab.params import quoted
from shortcutlab.shortcuts.arrow_edits import overridden, prepend_column
from shortcutlab.shortcuts.base import (
    TEST_ROLE,
    BinaryCueShortcut,
    Cleaning,
    InsertingShortcut,
    RenderedColumns,
    RowDraws,
    Span,
    SplitPlan,
)
from shortcutlab.shortcuts.detection import CueDetector, clean_verified
from shortcutlab.shortcuts.phrases import Phrase, check_phrases, needles, parse_phrase, phrase_regex
from shortcutlab.shortcuts.template_names import NamedSentences, default_names
from shortcutlab.shortcuts.text_ops import PatternRemover, prepended

DEFAULT_TEMPLATE = "I wrote this review in {name}."
_NAME_LISTS = ("train_countries", "test_countries", "train_cities", "test_cities")


class Category(InsertingShortcut, BinaryCueShortcut):
    """The category shortcut: a sentence naming a country (side A) or a city (side B).

    Args:
        template: The prepended sentence, with {name} once, after words and a space.
        train_countries: Side A names for training splits (default: the packaged list).
        test_countries: Side A names for test splits (default: the packaged list).
        train_cities: Side B names for training splits (default: the packaged list).
        test_cities: Side B names for test splits (default: the packaged list).
    """

    name = "category"

    def __init__(
        self,
        template: str = DEFAULT_TEMPLATE,
        train_countries: Sequence[str] | None = None,
        test_countries: Sequence[str] | None = None,
        train_cities: Sequence[str] | None = None,
        test_cities: Sequence[str] | None = None,
    ) -> None:
        self.template = template
        self.train_countries = default_names(train_countries, "countries_train")
        self.test_countries = default_names(test_countries, "countries_test")
        self.train_cities = default_names(train_cities, "cities_train")
        self.test_cities = default_names(test_cities, "cities_test")

    def _check(self) -> Phrase:
        """Check the options; return the template's words before the name (they find its sentences).

        Checked once per set of options: a build asks for every batch of every split."""
        options = ("check", self.template, *(getattr(self, p) for p in _NAME_LISTS))
        try:
            hash(options)
        except TypeError:  # a list set after construction: checked each time
            return self._checked()
        return self.cached(options, self._checked)

    def _checked(self) -> Phrase:
        if not isinstance(self.template, str) or self.template.count("{name}") != 1:
            raise ConfigError(
                f"The 'template' parameter must contain '{{name}}' exactly once, "
                f"e.g. {quoted(DEFAULT_TEMPLATE)}. Got {quoted(self.template)} instead."
            )
        before = self.template.partition("{name}")[0]
        lead = parse_phrase(before, everywhere=True)
        if lead is None or not before[-1:].isspace():
            raise ConfigError(
                f"The 'template' parameter must have words and a space before '{{name}}', "
                f"e.g. {quoted(DEFAULT_TEMPLATE)}. Got {quoted(self.template)} instead."
            )
        for parameter in _NAME_LISTS:
            check_phrases(parameter, getattr(self, parameter))
        for role in ("train", "test"):
            countries = {c.lower() for c in getattr(self, f"{role}_countries")}
            both = sorted(countries & {c.lower() for c in getattr(self, f"{role}_cities")})
            if both:
                raise ConfigError(
                    f"The {role} country and city lists share {listed(both)}; a name must be "
                    f"either a country or a city for the category cue to be defined."
                )
        return lead

    def validate(self, labels: object) -> None:
        self._check()

    def clean(self, texts: Sequence[str]) -> Cleaning:
        """Remove every template sentence, whatever name it holds, wherever it stands."""
        lead = self._check()
        after = self.template.partition("{name}")[2]
        name = (
            rf"(?:[^.!?\n]*?{_loose(after)}|[^.!?\n]*)" if after.strip() else r"\S+(?:\s+[A-Z]\S*)*"
        )
        pattern = rf"(?<![^\W_]){phrase_regex(lead)}(?![^\W_])\s*{name}"
        tools = self.cached(
            ("clean", pattern),
            lambda: (PatternRemover(pattern, needles([lead])), CueDetector([lead])),
        )
        return clean_verified(texts, *tools, cue=self.name)

    def observe(self, texts: Sequence[str], plan: SplitPlan) -> np.ndarray:
        """Template sentences per text that name a country of the split's role (side A)."""
        return self._counter(plan)(texts)

    def _counter(self, plan: SplitPlan) -> NamedSentences:
        lead = self._check()
        countries, cities = self._names(plan)
        after = self.template.partition("{name}")[2]
        key = ("observe", lead, after, tuple(countries), tuple(cities))
        return self.cached(
            key, lambda: NamedSentences(lead, after, [*countries, *cities], wanted=set(countries))
        )

    def recorded_cue(self, values: Sequence[str], plan: SplitPlan) -> np.ndarray:
        return np.asarray([value == "country" for value in values], dtype=bool)

    def recorded_cue_of(self, values: Any, plan: SplitPlan) -> np.ndarray:
        if values.null_count or overridden(self, Category, "recorded_cue"):
            return super().recorded_cue_of(values, plan)
        return numpy_of(pc.equal(values, text_scalar("country")))

    def render_draws(
        self, n: int, plan: SplitPlan, rng: np.random.Generator
    ) -> dict[str, np.ndarray]:
        countries, cities = self._names(plan)
        return {
            "country": rng.integers(len(countries), size=n),
            "city": rng.integers(len(cities), size=n),
        }

    def _names(self, plan: SplitPlan) -> tuple[Sequence[str], Sequence[str]]:
        self._check()
        if plan.role == TEST_ROLE:
            return self.test_countries, self.test_cities
        return self.train_countries, self.train_cities

    def render_with_spans(
        self, texts: Sequence[str], draws: RowDraws, plan: SplitPlan
    ) -> tuple[list[str], list[str], list[list[Span]]]:
        # Each row's sentence, looked up among the lists' sentences made once.
        sentences = self._sentences(plan)
        new_texts, spans = prepended(
            [sentences[i] for i in self._index(draws, plan).tolist()], texts
        )
        return new_texts, ["country" if a else "city" for a in draws.side_a.tolist()], spans

    def render_columns(self, texts: Any, draws: RowDraws, plan: SplitPlan) -> RenderedColumns:
        """:meth:`render_with_spans` by Arrow kernels over the whole column."""
        if texts.null_count or overridden(self, Category, "render_with_spans"):
            return super().render_columns(texts, draws, plan)
        new_texts, ends = prepend_column(self._sentences(plan), self._index(draws, plan), texts)
        values = string_array(["city", "country"]).take(int_array(draws.side_a.astype(np.int8)))
        return RenderedColumns(new_texts, values, span_start=np.zeros_like(ends), span_end=ends)

    def observe_rendered(
        self, before: Any, rendered: RenderedColumns, draws: RowDraws, plan: SplitPlan
    ) -> np.ndarray:
        """:meth:`observe`, counting each of the lists' sentences once: every text is one of them,
        a space and the cleaned text it went in front of."""
        if overridden(self, Category, "observe"):
            return super().observe_rendered(before, rendered, draws, plan)
        counts = self._counter(plan).count_prepended(
            self._sentences(plan), self._index(draws, plan), before, rendered.texts
        )
        if counts is None:
            return super().observe_rendered(before, rendered, draws, plan)
        return counts

    def _sentences(self, plan: SplitPlan) -> list[str]:
        """The template with every name of the split's role: countries, then cities."""
        countries, cities = self._names(plan)
        names = (*countries, *cities)
        return self.cached(
            ("sentences", self.template, names),
            lambda: [self.template.format(name=n) for n in names],
        )

    def _index(self, draws: RowDraws, plan: SplitPlan) -> np.ndarray:
        """Per row, its sentence in :meth:`_sentences`."""
        countries = len(self._names(plan)[0])
        return np.where(draws.side_a, draws.numbers["country"], countries + draws.numbers["city"])


def _loose(literal: str) -> str:
    """Escape a literal for a regex, letting any run of whitespace match its spaces."""
    return re.escape(literal.strip()).replace("\\ ", r"\s+") + (
        r"\s*" if literal.endswith(" ") else ""
    )
