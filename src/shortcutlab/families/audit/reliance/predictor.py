"""The model an audit measures: a model fitted on the training rows, or a fitted scikit-learn
estimator (or ``predict_proba`` function) the user trained elsewhere."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

from shortcutlab.data.pairs import TextInput
from shortcutlab.families.audit.scan.inputs import AuditInputs
from shortcutlab.models import make_model
from shortcutlab.models.adapters import model_label, resolve_model
from shortcutlab.models.base import check_input_kind
from shortcutlab.models.saved_estimator import SavedEstimator, is_fitted, load_estimator


@runtime_checkable
class Predictor(Protocol):
    """Anything that gives class probabilities in the label space's rank order."""

    name: str

    def predict_proba(self, inputs: Sequence[TextInput]) -> np.ndarray:
        """An (n, K) array; column ``k`` is label rank ``k``."""
        ...


def load_predictor(
    model: Any, params: Mapping[str, Any] | None, *, train: AuditInputs, seed: int
) -> Predictor:
    """The predictor ``model`` names, as :func:`~shortcutlab.models.adapters.resolve_model` reads
    it: a fitted scikit-learn estimator (the object, or the path of a saved .joblib/.pkl) or a
    fitted ``predict_proba`` function is measured as it is; a registered model, an unfitted
    estimator, or a class or object with ``fit`` is fitted on the training rows.

    A saved estimator is read with ``joblib.load``, which unpickles it: **a pickle runs code when
    it is loaded, so load only files you trust.** A fitted estimator's ``classes_`` are matched to
    the data's labels by value; a function's columns must follow the label order.
    """
    name, params = resolve_model(model, params)
    if name == "sklearn":
        estimator = params.get("estimator")
        if estimator is None:
            estimator = load_estimator(params["path"], fitted=False)
        if is_fitted(estimator):
            return SavedEstimator(estimator, train.labels, model_label(name, params))
        params = {"estimator": estimator}  # read once; fitted like any model
    if name == "function":
        return make_model(name, params)
    return _fitted_model(name, params, train, seed)


def _fitted_model(
    name: str, params: Mapping[str, Any] | None, train: AuditInputs, seed: int
) -> Predictor:
    classifier = make_model(name, params, seed=seed)
    inputs = train.model_inputs()
    check_input_kind(classifier, inputs)
    classifier.set_label_values(train.labels.values)
    classifier.fit(inputs, train.ranks, n_classes=len(train.labels))
    return classifier
