"""SHAP values of one text's tokens: the ``shap`` library's Partition explainer with a Text masker
over any ``predict_proba`` (Shortcut Maze section 3.4 uses SHAP the same way for its Table 4).

The masker hides tokens by replacing each run of hidden tokens with ``mask_token`` ("...", the
library's default). The explainer walks the masker's token hierarchy from the top; splitting a text
of M tokens down to single tokens takes about M(M - 1) model calls (measured: 17 tokens 252 calls,
62 tokens 3,820), so the default budget is enough for that and every token gets its own value. A
smaller ``max_evals`` stops earlier and leaves groups of neighbouring tokens sharing one value
(500, shap's default, does so beyond about 22 tokens). The same model and text give the same
values (see :func:`_fixed_tie_breaks`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from shortcutlab.errors import ConfigError, DataError
from shortcutlab.explain.tokens import WordTokenizer, word_spans
from shortcutlab.params import check_positive_int, quoted, require

MASK_TOKEN = "..."


@dataclass
class TokenValues:
    """SHAP values of one text: ``values[t, k]`` is token t's share of output k, ``base[k]`` the
    output with every token hidden; ``base + values.sum(0)`` is the output on the whole text."""

    offsets: list[tuple[int, int]]
    values: np.ndarray
    base: np.ndarray


def _shap() -> Any:
    try:
        import shap
    except ImportError as exc:  # an optional dependency
        raise ConfigError(
            "SHAP attributions need the shap package. Install it with "
            "pip install 'shortcutlab[explain]'."
        ) from exc
    return shap


@contextlib.contextmanager
def _fixed_tie_breaks() -> Iterator[None]:
    """Seed NumPy's global generator for one explanation and put the caller's state back.

    shap's Partition explainer orders its work queue with ``np.random.randn()`` tie-breakers
    (shap/explainers/_partition.py, 0.51): with a budget they choose which token groups get split,
    and even with every token split they change the order of the sums (last bits of the values).
    This is the only place shortcutlab touches the global generator, and it leaves it as it was.
    """
    state = np.random.get_state()
    np.random.seed(0)
    try:
        yield
    finally:
        np.random.set_state(state)


class TextExplainer:
    """Explain texts one at a time; ``explain(text, predict)`` takes the function that maps the
    masked versions of ``text`` to probabilities (it may complete them, e.g. into pairs)."""

    def __init__(self, *, max_evals: int | None = None, batch_size: int = 64) -> None:
        if max_evals is not None:  # the whole text, the empty one and one split at the least
            whole = isinstance(max_evals, int) and not isinstance(max_evals, bool)
            require(whole and max_evals >= 3, "explain", "max_evals", "an integer >= 3", max_evals)
        check_positive_int("explain", "batch_size", batch_size)
        self.max_evals, self.batch_size = max_evals, batch_size
        self._masker = _shap().maskers.Text(WordTokenizer(), mask_token=MASK_TOKEN)

    def masked_texts(self, text: str) -> list[str]:
        """The masked versions of ``text`` that :meth:`explain` will ask the model about, found
        by a pass with a model that answers zeros (tens of milliseconds). With the default budget
        every split is made whatever the outputs, so these are exactly the explanation's texts
        (the outputs only order the work); with ``max_evals`` the outputs steer which groups get
        split, and the list is a guess that shares most texts."""
        asked: list[str] = []

        def record(masked: list[str]) -> np.ndarray:
            asked.extend(masked)
            return np.zeros((len(masked), 1))

        if word_spans(text):
            self._partition(text, record)
        return asked

    def explain(self, text: str, predict: Callable[[list[str]], np.ndarray]) -> TokenValues:
        offsets = word_spans(text)
        if not offsets:
            raise DataError(f"The text {quoted(text)} has no token to attribute anything to.")
        explained = self._partition(text, predict)
        values = np.asarray(explained.values[0], dtype=np.float64)
        if values.shape[0] != len(offsets):
            raise RuntimeError(
                f"Bug: SHAP returned {values.shape[0]} token values for {len(offsets)} tokens."
            )
        return TokenValues(offsets, values, np.asarray(explained.base_values[0], np.float64))

    def _partition(self, text: str, predict: Callable[[list[str]], np.ndarray]) -> Any:
        def model(masked: Sequence[str]) -> np.ndarray:
            return np.asarray(predict([str(m) for m in masked]), dtype=np.float64)

        explainer = _shap().explainers.Partition(model, self._masker)
        tokens = len(word_spans(text))
        budget = self.max_evals or tokens * (tokens + 1) + 2
        with _fixed_tie_breaks():
            return explainer([text], max_evals=budget, batch_size=self.batch_size, silent=True)
