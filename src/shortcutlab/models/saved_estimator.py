"""A scikit-learn estimator the user holds: read from a saved file, fed raw texts (pairs as a
DataFrame), and its ``classes_`` matched to the benchmark's labels by value.

One copy serves both uses: the audit measures a fitted estimator as it is
(:class:`SavedEstimator`), and the ``sklearn`` model (models/adapters.py) clones and fits one
where a protocol trains.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from shortcutlab.data.labels import LabelSpace
from shortcutlab.data.pairs import TEXT, TEXT_PAIR, TextInput, is_paired, split_inputs
from shortcutlab.errors import ConfigError, DataError, listed
from shortcutlab.models.registry import MODELS
from shortcutlab.models.text_view import TextView, pipeline_views

#: File endings read as a saved estimator (anything else is looked up as a model name).
SAVED_SUFFIXES = (".joblib", ".pkl", ".pickle")


def is_saved_model_path(model: Any) -> bool:
    """Whether ``model`` (a str or Path) names a saved estimator: by its ending, or an existing file."""
    if not isinstance(model, str | Path) or (isinstance(model, str) and model in MODELS.names()):
        return False
    return Path(model).suffix.lower() in SAVED_SUFFIXES or Path(model).is_file()


def estimator_inputs(inputs: Sequence[TextInput]) -> Any:
    """What a pipeline of raw texts reads: a list of strings, or for paired rows a DataFrame with
    the columns ``text`` and ``text_pair`` (what a ``ColumnTransformer`` selects from)."""
    if not is_paired(inputs):
        return list(inputs)
    import pandas as pd

    firsts, seconds = split_inputs(inputs)
    return pd.DataFrame({TEXT: firsts, TEXT_PAIR: seconds})


def estimator_probabilities(estimator: Any, inputs: Sequence[TextInput], name: str) -> np.ndarray:
    """``estimator.predict_proba`` of ``inputs``; a failure to read them is a one-line DataError."""
    try:
        return np.asarray(estimator.predict_proba(estimator_inputs(inputs)), dtype=np.float64)
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise DataError(
            f"The saved model {name} failed to predict ({type(exc).__name__}: "
            f"{str(exc).splitlines()[0] if str(exc) else 'no message'}); it must take raw texts "
            "(or a DataFrame with text and text_pair for pairs) as the pipeline's input."
        ) from exc


def is_fitted(estimator: Any) -> bool:
    """Whether scikit-learn considers ``estimator`` fitted."""
    from sklearn.exceptions import NotFittedError
    from sklearn.utils.validation import check_is_fitted

    try:
        check_is_fitted(estimator)
    except (NotFittedError, TypeError):
        return False
    return True


class SavedEstimator:
    """A fitted scikit-learn estimator or pipeline, its ``classes_`` mapped onto the label space.

    Single texts reach it as a list of strings; paired rows as a pandas DataFrame with the
    columns ``text`` and ``text_pair`` (what a ``ColumnTransformer`` pipeline selects from).
    """

    def __init__(self, estimator: Any, labels: LabelSpace, name: str) -> None:
        self.estimator = estimator
        self.name = name
        self.columns = class_columns(estimator, labels, self.name)

    def predict_proba(self, inputs: Sequence[TextInput]) -> np.ndarray:
        return estimator_probabilities(self.estimator, inputs, self.name)[:, self.columns]

    def text_view(self, part: str = "text") -> TextView | None:
        """The view of the text vectorizer the pipeline reads ``part`` with (for a
        ``ColumnTransformer`` of pairs, the one on the column ``text`` or ``text_pair``)."""
        return pipeline_views(self.estimator).get(part)


def load_estimator(path: str, *, fitted: bool = True) -> Any:
    """The estimator saved at ``path`` (``joblib.load``: **a pickle runs code when it is loaded,
    so load only files you trust**); it must have ``predict_proba`` and, with ``fitted``, be fitted."""
    import joblib

    if not Path(path).is_file():
        raise ConfigError(
            f"There is no saved model at {path}; give the path of a .joblib/.pkl file written "
            f"with joblib.dump, or a model name: {', '.join(MODELS.names())}."
        )
    try:
        estimator = joblib.load(path)
    except Exception as exc:  # noqa: BLE001 - unpickling can raise anything; all mean "unreadable"
        raise ConfigError(
            f"Could not read the saved model {path} ({type(exc).__name__}); write it with "
            "joblib.dump(fitted_pipeline, path) using the same scikit-learn version."
        ) from exc
    if not hasattr(estimator, "predict_proba"):
        raise ConfigError(
            f"The saved model {path} ({type(estimator).__name__}) has no predict_proba; save a "
            "classifier that gives probabilities (e.g. LogisticRegression, or SVC(probability=True))."
        )
    if fitted and not is_fitted(estimator):
        raise ConfigError(
            f"The saved model {path} ({type(estimator).__name__}) is not fitted; call fit(...) "
            "before joblib.dump."
        )
    return estimator


def class_columns(estimator: Any, labels: LabelSpace, name: str) -> np.ndarray:
    """For each label rank, the column of ``predict_proba`` that holds it."""
    classes = getattr(estimator, "classes_", None)
    if classes is None:
        raise ConfigError(
            f"The saved model {name} has no classes_, so its probability columns cannot be matched "
            "to labels; save a fitted scikit-learn classifier or pipeline."
        )
    classes = np.asarray(classes).tolist()
    ranks = labels.ranks(classes, where=f"The saved model {name}'s classes_")
    missing = [str(v) for r, v in enumerate(labels.values) if r not in set(ranks.tolist())]
    if missing:
        raise DataError(
            f"The saved model {name} predicts the classes {listed(classes)}, which "
            f"lack the data's label(s) {listed(missing)}; measure it on data with its labels only."
        )
    columns = np.empty(len(labels), dtype=np.int64)
    columns[ranks] = np.arange(len(classes))
    return columns
