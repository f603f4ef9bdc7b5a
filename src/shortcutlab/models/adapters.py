"""Any model as the user holds it, as a (registry name, params) pair the whole system runs.

:func:`resolve_model` turns a registered name, the path of a saved scikit-learn estimator, an
estimator object, a class or object with ``fit``/``predict_proba``, or a fitted
``predict_proba`` function into such a pair; evaluate, grids, the audit, explain, CAT and the
Suite then thread ``name + params`` unchanged. The three adapters here are the registered
``sklearn``, ``object`` and ``function`` models; :func:`model_label` names them in results.

Examples:
    >>> from sklearn.naive_bayes import MultinomialNB
    >>> from sklearn.feature_extraction.text import TfidfVectorizer
    >>> from sklearn.pipeline import make_pipeline
    >>> pipe = make_pipeline(TfidfVectorizer(), MultinomialNB())
    >>> resolve_model(pipe, None)[0], model_label(pipe)
    ('sklearn', 'Pipeline(TfidfVectorizer, MultinomialNB)')
    >>> resolve_model("tfidf-logreg", {"C": 1.0}), model_label("runs/pipe.joblib")
    (('tfidf-logreg', {'C': 1.0}), 'pipe.joblib')
"""

from __future__ import annotations

import copy
import inspect
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from shortcutlab.data.labels import LabelSpace
from shortcutlab.data.pairs import TextInput, is_paired
from shortcutlab.errors import ConfigError, DataError, knob
from shortcutlab.models.base import (
    TextClassifier,
    check_fitted_kind,
    check_input_kind,
    check_sample_weight,
    check_training_data,
    expand_columns,
)
from shortcutlab.models.registry import MODELS
from shortcutlab.models.saved_estimator import (
    estimator_inputs,
    estimator_probabilities,
    is_saved_model_path,
    load_estimator,
)
from shortcutlab.models.text_view import TextView, pipeline_views
from shortcutlab.models.tfidf import one_blas_thread

#: Keywords a duck-typed ``fit`` receives when its signature accepts them.
FIT_KEYWORDS = ("n_classes", "validation", "seed")
#: Constructor parameters that make a duck-typed model's fit depend on the seed.
SEED_PARAMETERS = ("seed", "random_state")
#: The registered adapters and the parameter each holds the user's model in.
ADAPTED = {"sklearn": ("path", "estimator"), "object": ("model",), "function": ("predict_proba",)}


def resolve_model(model: Any, params: Mapping[str, Any] | None) -> tuple[str, dict[str, Any]]:
    """The (registry name, params) pair that runs ``model`` as the user holds it.

    A string that is neither a saved-estimator path nor a registered name stays as it is, so the
    registry answers it with the close matches and the full list.
    """
    params = dict(params or {})
    if isinstance(model, str | Path) and is_saved_model_path(model):
        _refuse_params(params, f"the saved estimator {model}", "name a registered model instead")
        return "sklearn", {"path": str(model)}
    if isinstance(model, str):
        return model, params
    if inspect.isclass(model) and _has_fit_and_proba(model):
        return "object", {"model": model(**params)}
    if _has_fit_and_proba(model):
        if callable(getattr(model, "get_params", None)):
            _refuse_params(params, model_label(model), "set them on the estimator (set_params)")
            return "sklearn", {"estimator": model}
        _refuse_params(params, model_label(model), "set them on the object itself")
        return "object", {"model": model}
    if callable(model) and not inspect.isclass(model):
        _refuse_params(params, model_label(model), "a fitted function takes none")
        return "function", {"predict_proba": model}
    named = [n for n in MODELS.names() if n not in ADAPTED]
    raise ConfigError(
        f"{knob('model')} must be a registered model name ({', '.join(named[:3])}, ...), the path of a saved .joblib/.pkl estimator, a "
        "scikit-learn estimator, an object with fit and predict_proba, or a fitted predict_proba "
        f"function. Got {type(model).__name__} instead."
    )


def model_label(model: Any, params: Mapping[str, Any] | None = None) -> str:
    """What results and tables call ``model``: a registered name (for an adapter given with its
    ``params``, the model it holds), a saved file's name, an estimator's class name (a Pipeline
    with its steps), a duck-typed object's class name, or a function's name."""
    if isinstance(model, str) and model in ADAPTED and params:
        held = next((params[k] for k in ADAPTED[model] if params.get(k) is not None), None)
        return model if held is None else model_label(held)
    if isinstance(model, str | Path):
        return Path(model).name if is_saved_model_path(model) else str(model)
    if hasattr(model, "steps") and hasattr(model, "get_params"):  # a scikit-learn Pipeline
        return f"{type(model).__name__}({', '.join(type(s).__name__ for _, s in model.steps)})"
    if inspect.isclass(model) or inspect.isfunction(model) or inspect.ismethod(model):
        return str(model.__name__)
    return type(model).__name__


def renamed_keyword(function: str, model_params: Any) -> None:
    """Refuse the keyword ``model_params``, which is ``params`` now (one name everywhere)."""
    if model_params is not None:
        raise ConfigError(f"{function}'s 'model_params' is now 'params'; pass params=... instead.")


def refuse_fitted_function(name: str) -> None:
    """Refuse a fitted ``predict_proba`` function where the protocol trains the model."""
    if name == "function":
        FittedFunction().check()


def json_safe(value: Any) -> Any:
    """``value`` as results and records can store it: an object as one line of its repr."""
    if value is None or isinstance(value, str | int | float | bool):
        return value
    if inspect.isfunction(value) or inspect.ismethod(value):
        return value.__name__
    return " ".join(repr(value).split())


def json_safe_params(params: Mapping[str, Any]) -> dict[str, Any]:
    """``params`` with every value :func:`json_safe` (what a result or record stores)."""
    return {key: json_safe(value) for key, value in params.items()}


class SklearnModel(TextClassifier):
    """A scikit-learn estimator or pipeline that reads raw texts, cloned and fitted per fit.

    It is fitted on the benchmark's label values (so its ``classes_`` are those of fitting it by
    hand) and its probability columns are put in the benchmark's label order. Paired rows reach
    it as a DataFrame with the columns text and text_pair.

    Args:
        path: A .joblib/.pkl file written with joblib.dump (fitted or not; it is cloned).
        estimator: The estimator object (give this or path).
        seed: Set as every random_state of the clone, where the estimator has one.
    """

    name = "sklearn"

    def __init__(self, path: str | None = None, estimator: Any = None, seed: int = 0) -> None:
        self.path = path
        self.estimator = estimator
        self.seed = seed

    def check(self, n_classes: int | None = None) -> None:
        self._template()

    def get_params(self) -> dict[str, Any]:
        return {"path": self.path, "estimator": json_safe(self.estimator), "seed": self.seed}

    def depends_on_seed(self) -> bool:
        return bool(self._seed_parameters(self._template()))

    def set_label_values(self, values: Sequence[Any]) -> None:
        self._label_values = tuple(values)

    def fit(self, texts, labels, *, n_classes, validation=None, sample_weight=None):  # type: ignore[no-untyped-def]
        from sklearn.base import clone

        labels = check_training_data(texts, labels, n_classes)
        check_sample_weight(self, sample_weight, len(labels))  # declared without: refused
        values = getattr(self, "_label_values", None) or tuple(range(n_classes))
        estimator = clone(self._template())
        estimator.set_params(**dict.fromkeys(self._seed_parameters(estimator), self.seed))
        with one_blas_thread():  # as the TF-IDF models: lbfgs on sparse rows ran 3x slower without
            estimator.fit(estimator_inputs(texts), np.asarray(values)[labels])
        self.estimator_ = estimator
        self.paired_ = is_paired(texts)
        self.classes_ = LabelSpace(values).ranks(
            np.asarray(estimator.classes_), where=f"The {model_label(estimator)} model's classes_"
        )
        self.n_classes_ = n_classes
        return self

    def predict_proba(self, texts: Sequence[TextInput]) -> np.ndarray:
        check_fitted_kind(self.name, self.paired_, texts)
        if not len(texts):  # scikit-learn refuses to transform no rows
            return np.zeros((0, self.n_classes_), dtype=np.float64)
        label = model_label(self.path or self.estimator)
        with one_blas_thread():
            probabilities = estimator_probabilities(self.estimator_, texts, label)
        return expand_columns(probabilities, self.classes_, self.n_classes_)

    def text_view(self, part: str = "text") -> TextView | None:
        """The view of the text vectorizer inside the fitted estimator that reads ``part``."""
        return pipeline_views(self.estimator_).get(part)

    def _template(self) -> Any:
        """The estimator every fit clones (read from ``path`` once)."""
        if (self.path is None) == (self.estimator is None):
            raise ConfigError(
                "The sklearn model takes exactly one of 'path' (a saved .joblib/.pkl estimator) "
                f"and 'estimator' (the object). Got {'both' if self.path else 'neither'}."
            )
        if self.estimator is not None:
            return self.estimator
        if getattr(self, "_loaded", None) is None:
            self._loaded = load_estimator(str(self.path), fitted=False)
        return self._loaded

    @staticmethod
    def _seed_parameters(estimator: Any) -> list[str]:
        return [k for k in estimator.get_params(deep=True) if k.endswith("random_state")]


class ObjectModel(TextClassifier):
    """Any object with ``fit(texts, labels, ...)`` and ``predict_proba(texts)``, copied per fit.

    ``fit`` gets the labels as ranks 0..K-1 and, where its signature takes them, ``n_classes``,
    ``validation`` and ``seed``; ``predict_proba`` must return an (n, K) array.

    Args:
        model: The object (a class with fit and predict_proba is made with the params first).
        seed: Passed to fit, or set as the copy's seed/random_state, where it takes one.
    """

    name = "object"

    def __init__(self, model: Any = None, seed: int = 0) -> None:
        self.model = model
        self.seed = seed

    def get_params(self) -> dict[str, Any]:
        return {"model": json_safe(self.model), "seed": self.seed}

    def depends_on_seed(self) -> bool:
        return "seed" in _accepted(self.model.fit) or bool(self._seed_attributes())

    def fit(self, texts, labels, *, n_classes, validation=None, sample_weight=None):  # type: ignore[no-untyped-def]
        labels = check_training_data(texts, labels, n_classes)
        check_sample_weight(self, sample_weight, len(labels))  # declared without: refused
        check_input_kind(self, texts)
        fitted = copy.deepcopy(self.model)
        for attribute in self._seed_attributes():
            setattr(fitted, attribute, self.seed)
        given = {"n_classes": n_classes, "validation": validation, "seed": self.seed}
        accepted = _accepted(fitted.fit)
        fitted.fit(list(texts), labels, **{k: given[k] for k in FIT_KEYWORDS if k in accepted})
        self.fitted_, self.n_classes_ = fitted, n_classes
        return self

    def predict_proba(self, texts: Sequence[TextInput]) -> np.ndarray:
        probabilities = np.asarray(self.fitted_.predict_proba(list(texts)), dtype=np.float64)
        return _checked_shape(probabilities, len(texts), self.n_classes_, model_label(self.model))

    def _seed_attributes(self) -> list[str]:
        """The seed parameters of the object's constructor that it stores as attributes."""
        taken = _accepted(type(self.model).__init__)
        return [p for p in SEED_PARAMETERS if p in taken and hasattr(self.model, p)]


class FittedFunction(TextClassifier):
    """A fitted model's ``predict_proba(texts) -> (n, K)``, columns in the label order; it
    cannot be trained, so it serves where a protocol only predicts (the audit).

    Args:
        predict_proba: The function.
    """

    name = "function"

    def __init__(self, predict_proba: Callable[[list[Any]], Any] | None = None) -> None:
        self.predict_proba_function = predict_proba

    def get_params(self) -> dict[str, Any]:
        return {"predict_proba": json_safe(self.predict_proba_function)}

    def check(self, n_classes: int | None = None) -> None:
        raise ConfigError(
            f"{knob('model')} is a predict_proba function, which is already fitted; evaluate "
            "trains a model per seed: pass an estimator, a class with fit, or a model name."
        )

    def fit(self, texts, labels, *, n_classes, validation=None, sample_weight=None):  # type: ignore[no-untyped-def]
        self.check(n_classes)

    def predict_proba(self, texts: Sequence[TextInput]) -> np.ndarray:
        function = self.predict_proba_function
        probabilities = np.asarray(function(list(texts)), dtype=np.float64)  # type: ignore[misc]
        width = probabilities.shape[1] if probabilities.ndim == 2 else -1
        return _checked_shape(probabilities, len(texts), width, model_label(function))


def _has_fit_and_proba(model: Any) -> bool:
    return callable(getattr(model, "fit", None)) and callable(getattr(model, "predict_proba", None))


def _refuse_params(params: Mapping[str, Any], what: str, fix: str) -> None:
    if params:
        raise ConfigError(
            f"Model parameters ({', '.join(params)}) apply to a registered model, not to {what}; "
            f"{fix}."
        )


def _accepted(function: Any) -> set[str]:
    """The keyword names ``function`` takes (every name where it takes ``**kwargs``)."""
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return set()
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters):
        return {*FIT_KEYWORDS, *SEED_PARAMETERS}
    return {p.name for p in parameters}


def _checked_shape(probabilities: np.ndarray, rows: int, width: int, label: str) -> np.ndarray:
    if probabilities.ndim != 2 or probabilities.shape[0] != rows or probabilities.shape[1] != width:
        raise DataError(
            f"{label}.predict_proba returned shape {probabilities.shape}; it must return one row "
            f"per text and one column per label, ({rows}, {width}), in the label order."
        )
    return probabilities
