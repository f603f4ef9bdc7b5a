"""The model contract every backend follows.

``fit(texts, labels, n_classes=K)`` with labels as ranks 0..K-1 in the benchmark's label order, then
``predict_proba(texts)`` returns an (n, K) array whose columns follow that same order, even for
labels the training split happened to lack.

``fit(..., sample_weight=w)`` weighs each training row's loss (backends declared with
``sample_weight`` on their registry line); the weights are checked and scaled to mean 1 by
:func:`check_sample_weight`, so C and learning rates keep their meaning. Weights enter the loss
only: what a backend learns without labels (a TF-IDF vocabulary and IDF, a bag-of-words
vocabulary) still comes from every row.
"""

from __future__ import annotations

import inspect
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, runtime_checkable

import numpy as np

from shortcutlab.data.pairs import is_paired
from shortcutlab.errors import ConfigError, DataError
from shortcutlab.models.objectives import check_objective
from shortcutlab.models.registry import MODELS
from shortcutlab.params import quoted

if TYPE_CHECKING:
    from shortcutlab.models.text_view import TextView


class TextClassifier(ABC):
    """Base class of text classifiers. Constructors only store their keyword parameters.

    What a backend can do (reads pairs, takes sample weights, trains in epochs, ...) is declared
    once, on its registry line (models/registry.py); the class reads it with :meth:`capabilities`.
    """

    name: ClassVar[str]

    @classmethod
    def capabilities(cls) -> dict[str, Any]:
        """The capabilities declared on this model's registry line (models/registry.py)."""
        return MODELS.capabilities(cls.name)

    def depends_on_seed(self) -> bool:
        """Whether this configuration's fit or predictions can change with its seed (else the
        seeds of an evaluation share one fit); by default the registry's ``seeded``."""
        return bool(self.capabilities()["seeded"])

    def on_epoch_end(self, callback: Callable[[int], None] | None) -> None:
        """Have ``callback(epoch)`` called after each training epoch of the next :meth:`fit`;
        :meth:`predict_proba` inside it predicts with that epoch's weights."""
        if not self.capabilities()["epochs"]:
            raise ConfigError(
                f"The {self.name} model is not trained in epochs, so it has no per-epoch "
                "predictions; average_last_epochs applies to models trained in epochs: "
                f"{', '.join(MODELS.having('epochs'))}."
            )
        self._epoch_callback = callback

    def end_of_epoch(self, epoch: int) -> None:
        """Called by models trained in epochs after each epoch (1-based)."""
        callback = getattr(self, "_epoch_callback", None)
        if callback is not None:
            callback(epoch)

    def set_objective(self, objective: Any) -> None:
        """Have the next :meth:`fit` backpropagate ``objective.loss(...)`` instead of the mean
        cross-entropy (a :class:`~shortcutlab.models.objectives.TrainingObjective`); None restores it."""
        if not self.capabilities()["objective"]:
            raise ConfigError(
                f"The {self.name} model is not trained by gradient steps on per-row losses, so it "
                f"takes no training objective. Models that do: {', '.join(MODELS.having('objective'))}."
            )
        check_objective(self.name, objective)
        self._objective = objective

    def objective(self) -> Any:
        """The objective given to :meth:`set_objective` (None when the plain loss is used)."""
        return getattr(self, "_objective", None)

    def get_params(self) -> dict[str, Any]:
        names = [p for p in inspect.signature(type(self).__init__).parameters if p != "self"]
        return {name: _plain(getattr(self, name)) for name in names}

    def set_label_values(self, values: Sequence[Any]) -> None:  # noqa: B027 - optional hook
        """Receive the benchmark's label values, in rank order (for models that verbalise labels)."""

    def text_view(self, part: str = "text") -> TextView | None:
        """How the fitted model reads the ``part`` ("text" or "text_pair") of its input: its
        tokens and fitted vocabulary (models/text_view.py); None where it gives none."""
        return None

    def close(self) -> None:  # noqa: B027 - optional hook
        """Release what fitting acquired (network clients, loaded weights); called after predicting."""

    def check(self, n_classes: int | None = None) -> None:  # noqa: B027 (an optional hook)
        """Raise a ConfigError early for bad parameters (called before a grid runs)."""

    @abstractmethod
    def fit(
        self,
        texts: Sequence[str],
        labels: np.ndarray,
        *,
        n_classes: int,
        validation: tuple[Sequence[str], np.ndarray] | None = None,
        sample_weight: np.ndarray | None = None,
    ) -> TextClassifier:
        """Train on ``texts`` with integer ``labels`` in [0, n_classes), each row's loss weighted
        by ``sample_weight`` when given (see :func:`check_sample_weight`)."""

    @abstractmethod
    def predict_proba(self, texts: Sequence[str]) -> np.ndarray:
        """Class probabilities, shape (len(texts), n_classes), rows summing to 1."""

    def predict(self, texts: Sequence[str]) -> np.ndarray:
        return np.asarray(self.predict_proba(texts)).argmax(axis=1)


def check_training_data(texts: Sequence[str], labels: np.ndarray, n_classes: int) -> np.ndarray:
    """Validate fit() inputs and return the labels as an int64 array."""
    labels = np.asarray(labels)
    if len(texts) != len(labels):
        raise DataError(f"fit() got {len(texts)} texts but {len(labels)} labels; they must match.")
    if len(texts) == 0:
        raise DataError("fit() got no training rows.")
    if isinstance(n_classes, bool) or not isinstance(n_classes, int | np.integer) or n_classes < 2:
        raise ConfigError(
            f"The 'n_classes' parameter must be an integer >= 2. Got {quoted(n_classes)} instead."
        )
    if not np.issubdtype(labels.dtype, np.integer) or labels.min() < 0 or labels.max() >= n_classes:
        raise DataError(
            f"fit() labels must be integers in [0, {n_classes}); got values {np.unique(labels)[:10].tolist()}."
        )
    return labels.astype(np.int64)


def check_sample_weight(
    model: TextClassifier, sample_weight: Any, n_rows: int
) -> np.ndarray | None:
    """Validate ``fit(sample_weight=...)`` and return it as float64 scaled to mean 1 (None stays None).

    Weights must be finite, non-negative, one per row and not all zero; a model not declared with
    ``sample_weight`` refuses any, and so does a model given a training objective (the
    objective decides the loss; put the weights into it instead).

    Examples:
        >>> from shortcutlab.models.majority import MajorityClass
        >>> check_sample_weight(MajorityClass(), [1, 3], 2).tolist()
        [0.5, 1.5]
    """
    if sample_weight is None:
        return None
    if not model.capabilities()["sample_weight"]:
        raise ConfigError(
            f"The {model.name} model takes no sample weights. Models that do: "
            f"{', '.join(MODELS.having('sample_weight'))}."
        )
    if model.objective() is not None:
        raise ConfigError(
            f"The {model.name} model was given both a training objective and sample weights; "
            "give one of them (an objective can weigh rows itself)."
        )
    try:
        weights = np.asarray(sample_weight, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise DataError(
            f"fit() sample_weight must be numbers; got {quoted(sample_weight)}."
        ) from exc
    if weights.shape != (n_rows,):
        raise DataError(
            f"fit() got {n_rows} rows but sample_weight has shape {weights.shape}; give one "
            "weight per row."
        )
    if not np.all(np.isfinite(weights)) or np.any(weights < 0):
        raise DataError("fit() sample_weight must be finite and non-negative (a weight per row).")
    if not weights.any():
        raise DataError("fit() sample_weight is zero for every row; at least one row must count.")
    return weights / weights.mean()


def no_words(owner: str, kept: str, part: str = "text") -> DataError:
    """The refusal of a word-based model (TF-IDF, bag of words) whose training texts (``part``:
    "text" or "text_pair") hold no term it keeps (``kept``: "a word of two or more letters or
    digits"), so its vocabulary would be empty: texts of emoji, symbols or zero-width characters."""
    texts = "text" if part == "text" else "second text (text_pair)"
    return DataError(
        f"No training {texts} has a term that {owner} keeps ({kept}), so its vocabulary is "
        "empty (texts of emoji, symbols, punctuation or invisible characters have none). Check "
        "that the text column holds the texts, or use a model that reads any character, such "
        "as transformer."
    )


def check_input_kind(model: TextClassifier, inputs: Sequence[Any]) -> None:
    """Raise a ConfigError when paired inputs reach a model that reads one text per row."""
    check_pair_support(model, paired=is_paired(inputs))


def check_pair_support(model: TextClassifier, *, paired: bool) -> None:
    """:func:`check_input_kind` before any input is read (a grid checks its models up front)."""
    if paired and not model.capabilities()["pairs"]:
        raise ConfigError(
            f"The {model.name} model reads one text per row, but the data has paired inputs "
            f"(text and text_pair). Models that read pairs: {', '.join(MODELS.having('pairs'))}."
        )


def check_fitted_kind(model_name: str, fitted_on_pairs: bool, inputs: Sequence[Any]) -> None:
    """Raise a DataError when ``inputs`` are not the kind (pairs or single texts) a model was fitted on."""
    if len(inputs) and is_paired(inputs) != fitted_on_pairs:
        fitted, given = (
            ("paired inputs", "single texts") if fitted_on_pairs else ("single texts", "pairs")
        )
        raise DataError(
            f"The {model_name} model was fitted on {fitted} but got {given} to predict; "
            "predict on data with the same columns (text and text_pair) it was trained on."
        )


@runtime_checkable
class LastLayerModel(Protocol):
    """A fitted model whose predictions are a softmax over one linear layer of its features:
    ``softmax(features(x) @ W.T + b) == predict_proba(x)`` with ``(W, b) = last_layer()``.

    ``W`` has shape (n_classes, d) and ``b`` (n_classes,), in the benchmark's label order; a label
    the training split lacked has a zero row in ``W`` and a bias of ``-inf`` (probability 0).
    ``features`` returns a dense float array, or a scipy sparse matrix for TF-IDF.
    """

    def features(self, inputs: Sequence[Any]) -> Any: ...

    def last_layer(self) -> tuple[np.ndarray, np.ndarray]: ...


def expand_last_layer(
    weights: np.ndarray, bias: np.ndarray, classes: np.ndarray, n_classes: int
) -> tuple[np.ndarray, np.ndarray]:
    """Place a head's rows (for ``classes``) into (n_classes, d) weights and (n_classes,) biases;
    labels absent from ``classes`` get zero weights and a bias of ``-inf``."""
    full_weights = np.zeros((n_classes, weights.shape[1]), dtype=np.float64)
    full_bias = np.full(n_classes, -np.inf, dtype=np.float64)
    full_weights[classes] = weights
    full_bias[classes] = bias
    return full_weights, full_bias


def expand_columns(probabilities: np.ndarray, classes: np.ndarray, n_classes: int) -> np.ndarray:
    """Place a model's probability columns (for ``classes``) into an (n, n_classes) array."""
    full = np.zeros((probabilities.shape[0], n_classes), dtype=np.float64)
    full[:, classes] = probabilities
    return full


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return list(value)
    return value
