"""The model an audit measures: a registered model fitted on the training rows, or a saved
scikit-learn estimator the user trained elsewhere."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from shortcutlab.data.labels import LabelSpace
from shortcutlab.data.pairs import TEXT, TEXT_PAIR, TextInput, is_paired, split_inputs
from shortcutlab.errors import ConfigError, DataError, listed
from shortcutlab.families.audit.scan.inputs import AuditInputs
from shortcutlab.models import MODELS, make_model
from shortcutlab.models.base import check_input_kind
from shortcutlab.models.text_view import TextView, pipeline_views

#: File endings read as a saved estimator (anything else is looked up as a model name).
SAVED_SUFFIXES = (".joblib", ".pkl", ".pickle")


@runtime_checkable
class Predictor(Protocol):
    """Anything that gives class probabilities in the label space's rank order."""

    name: str

    def predict_proba(self, inputs: Sequence[TextInput]) -> np.ndarray:
        """An (n, K) array; column ``k`` is label rank ``k``."""
        ...


class SavedEstimator:
    """A fitted scikit-learn estimator or pipeline, its ``classes_`` mapped onto the label space.

    Single texts reach it as a list of strings; paired rows as a pandas DataFrame with the
    columns ``text`` and ``text_pair`` (what a ``ColumnTransformer`` pipeline selects from).
    """

    def __init__(self, estimator: Any, labels: LabelSpace, path: str) -> None:
        self.estimator = estimator
        self.name = Path(path).name
        self.path = path
        self.columns = _class_columns(estimator, labels, self.name)

    def predict_proba(self, inputs: Sequence[TextInput]) -> np.ndarray:
        if is_paired(inputs):
            import pandas as pd

            firsts, seconds = split_inputs(inputs)
            given: Any = pd.DataFrame({TEXT: firsts, TEXT_PAIR: seconds})
        else:
            given = list(inputs)
        try:
            probabilities = np.asarray(self.estimator.predict_proba(given), dtype=np.float64)
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            raise DataError(
                f"The saved model {self.name} failed to predict ({type(exc).__name__}: "
                f"{str(exc).splitlines()[0] if str(exc) else 'no message'}); it must take raw texts "
                "(or a DataFrame with text and text_pair for pairs) as the pipeline's input."
            ) from exc
        return probabilities[:, self.columns]

    def text_view(self, part: str = "text") -> TextView | None:
        """The view of the text vectorizer the pipeline reads ``part`` with (for a
        ``ColumnTransformer`` of pairs, the one on the column ``text`` or ``text_pair``)."""
        return pipeline_views(self.estimator).get(part)


def load_predictor(
    model: str, params: Mapping[str, Any] | None, *, train: AuditInputs, seed: int
) -> Predictor:
    """The predictor named by ``model``: a registered model (``models.MODELS``) fitted on the
    training rows, or the path of a saved scikit-learn estimator/pipeline (.joblib, .pkl).

    A saved estimator is read with ``joblib.load``, which unpickles it: **a pickle runs code when
    it is loaded, so load only files you trust.** It must be fitted and have ``predict_proba`` and
    ``classes_``; its classes are matched to the data's labels by value.
    """
    if model in MODELS.names():
        return _fitted_model(model, params, train, seed)
    if Path(model).suffix.lower() in SAVED_SUFFIXES or Path(model).exists():
        if params:
            raise ConfigError(
                f"Model parameters ({', '.join(params)}) apply to a registered model, not to the "
                f"saved estimator {model}; leave out -p or name a model: {', '.join(MODELS.names())}."
            )
        return SavedEstimator(_load_estimator(model), train.labels, model)
    return _fitted_model(model, params, train, seed)  # an unknown name: the registry's error


def _fitted_model(
    name: str, params: Mapping[str, Any] | None, train: AuditInputs, seed: int
) -> Predictor:
    classifier = make_model(name, params, seed=seed)
    inputs = train.model_inputs()
    check_input_kind(classifier, inputs)
    classifier.set_label_values(train.labels.values)
    classifier.fit(inputs, train.ranks, n_classes=len(train.labels))
    return classifier


def _load_estimator(path: str) -> Any:
    import joblib
    from sklearn.exceptions import NotFittedError
    from sklearn.utils.validation import check_is_fitted

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
    try:
        check_is_fitted(estimator)
    except (NotFittedError, TypeError) as exc:
        raise ConfigError(
            f"The saved model {path} ({type(estimator).__name__}) is not fitted; call fit(...) "
            "before joblib.dump."
        ) from exc
    return estimator


def _class_columns(estimator: Any, labels: LabelSpace, name: str) -> np.ndarray:
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
