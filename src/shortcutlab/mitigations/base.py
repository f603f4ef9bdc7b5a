"""The mitigation contract: a method takes a backend's name and parameters plus the training rows
(with their groups when it reads them) and returns a fitted predictor.

``fit(context)`` returns anything with ``predict_proba(inputs)`` and ``close()`` (a
:class:`~shortcutlab.models.base.TextClassifier` is one); the engine predicts the test splits with
it, so a mitigated cell is scored exactly like a plain one.
"""

from __future__ import annotations

import inspect
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

import numpy as np

from shortcutlab.data.pairs import TextInput
from shortcutlab.errors import ConfigError
from shortcutlab.mitigations.registry import MITIGATIONS
from shortcutlab.models import MODELS, make_model
from shortcutlab.models.base import TextClassifier


class Predictor(Protocol):
    """What a mitigation's fit returns."""

    def predict_proba(self, inputs: Sequence[TextInput]) -> np.ndarray: ...

    def close(self) -> None: ...


@dataclass
class TrainingRows:
    """Rows given to a mitigation: model inputs, label ranks and group codes (``None`` when the
    method reads no groups or the rows have none; -1 marks a row without a group)."""

    inputs: list[TextInput]
    labels: np.ndarray
    groups: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.labels)

    def take(self, rows: np.ndarray) -> TrainingRows:
        return TrainingRows(
            [self.inputs[i] for i in rows],
            self.labels[rows],
            None if self.groups is None else self.groups[rows],
        )


@dataclass
class MitigationContext:
    """Everything a mitigation may read: the backend, the seed and the rows.

    ``validation`` holds the held-out rows (the benchmark's validation split), or None.
    ``group_names[g]`` names group code ``g`` (``"label|value"``). ``cue_phrases`` are the
    phrases the benchmark's build inserted as its cue (a Maze build of a phrase shortcut), () when
    it records none: the data-level repairs' default candidate.
    """

    model: str
    params: dict[str, Any]
    seed: int
    n_classes: int
    label_values: tuple[Any, ...]
    train: TrainingRows
    validation: TrainingRows | None = None
    group_names: tuple[str, ...] = ()
    group_source: str = ""  # the column the groups came from ("" when none were read)
    cue_phrases: tuple[str, ...] = ()
    extras: dict[str, Any] = field(default_factory=dict)

    def new_model(self, **overrides: Any) -> TextClassifier:
        """A fresh, unfitted instance of the backend (``overrides`` replace its parameters)."""
        model = make_model(self.model, {**self.params, **overrides}, seed=self.seed)
        model.set_label_values(self.label_values)
        return model

    def validation_pair(self) -> tuple[list[TextInput], np.ndarray] | None:
        """The ``validation=`` argument of a backend's fit."""
        if self.validation is None or not len(self.validation):
            return None
        return self.validation.inputs, self.validation.labels


class Mitigation(ABC):
    """Base class of mitigations. Constructors only store their keyword parameters.

    What a method needs (groups, held-out rows, paired data, the backends it trains) is declared
    once, on its registry line (mitigations/registry.py); the class reads it with
    :meth:`capabilities`.
    """

    name: ClassVar[str]

    def capabilities(self) -> dict[str, Any]:
        """The capabilities declared on this method's registry line (mitigations/registry.py).

        A pickled method carries them (:meth:`__getstate__`): a worker process started clean
        has no line for a method registered at run time, but reads what the method needs."""
        carried = self.__dict__.get("_capabilities")
        return dict(carried) if carried is not None else MITIGATIONS.capabilities(self.name)

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "_capabilities": self.capabilities()}

    def backends(self) -> list[str]:
        """The registered models this method can train (its line's ``backends`` requirements;
        :func:`~shortcutlab.mitigations.registry.supported_models` reads them by name)."""
        return MODELS.matching(self.capabilities()["backends"])

    def get_params(self) -> dict[str, Any]:
        parameters = inspect.signature(type(self).__init__).parameters.values()
        keywords = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
        names = [p.name for p in parameters if p.name != "self" and p.kind in keywords]
        return {name: getattr(self, name) for name in names}

    def check_params(self) -> None:  # noqa: B027 - optional hook
        """Raise a ConfigError for bad parameter values (called on construction by the factory)."""

    def check_backend(self, model: str, params: Mapping[str, Any] | None = None) -> None:
        """Refuse a backend this method cannot train, naming the ones it can.

        ``params`` are the model's constructor parameters: with them, refusals that depend on
        them (jtt's ``first_params``, groupdro's linear-probe ``class_weight``, a2r/cr's
        transformer ``lora``) happen here too. A grid calls this for every (model, mitigation)
        pair with the model's params before anything runs, so a bad combination fails before
        any fit; without ``params`` only the backend itself is checked.
        """
        supported = self.backends()
        if model not in supported:
            raise ConfigError(
                f"The {self.name} mitigation does not support the {model} model. "
                f"Models it supports: {', '.join(supported)}."
            )

    def needs_recorded_cue(self) -> bool:
        """Whether it reads the cue phrases the benchmark's build recorded
        (:attr:`MitigationContext.cue_phrases`): a grid refuses it on builds that record none."""
        return False

    def depends_on_seed(self, model_depends_on_seed: bool) -> bool:
        """Whether a cell's result can change with its seed (else the seeds share one fit)."""
        return model_depends_on_seed or bool(self.capabilities()["seeded"])

    @abstractmethod
    def fit(self, context: MitigationContext) -> Predictor:
        """Train on ``context.train`` and return the fitted predictor."""

    # What a method does to the training rows is declared as ``training_rows`` on its registry
    # line; it then gives them with the one hook below that the line names, without fitting.
    def repaired(self, context: MitigationContext) -> TrainingRows:
        """The rows it trains on: texts edited, added rows after the originals (``edits``)."""
        raise NotImplementedError(f"The {self.name} mitigation declares no edited rows.")

    def training_weights(self, context: MitigationContext) -> np.ndarray:
        """The loss weight of every training row (``weights``)."""
        raise NotImplementedError(f"The {self.name} mitigation declares no row weights.")

    def kept_rows(self, context: MitigationContext) -> np.ndarray:
        """Sorted positions of the training rows it trains on (``keeps``)."""
        raise NotImplementedError(f"The {self.name} mitigation declares no kept rows.")
