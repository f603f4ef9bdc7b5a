"""What every requirement of one check shares: the suite's data (read once) and the model."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from shortcutlab.data.labels import LabelSpace
from shortcutlab.data.loading import LABEL, LoadedTable
from shortcutlab.engine.spec_entries import DatasetSpec


@dataclass
class CheckContext:
    """The suite's dataset, the model as a (registry name, params) pair, and the settings every
    measurement uses (``seeds`` fits, ``bootstrap`` resamples, ``seed`` for builds)."""

    dataset: DatasetSpec
    model: str
    params: dict[str, Any]
    model_label: str
    seeds: int = 1
    bootstrap: int = 1000
    seed: int = 0
    _tables: tuple[LoadedTable, LoadedTable] | None = field(default=None, repr=False)
    _fitted: Any = field(default=None, repr=False)

    def tables(self) -> tuple[LoadedTable, LoadedTable]:
        """The train and test tables, read (or generated) on first use."""
        if self._tables is None:
            from shortcutlab.engine.run_folder import dataset_tables

            train, test = dataset_tables(self.dataset)
            assert test is not None  # a suite's data always has a test side
            self._tables = (train, test)
        return self._tables

    def labels(self) -> LabelSpace:
        train = self.tables()[0]
        return LabelSpace.infer(
            train.frame[LABEL].tolist(), given=self.dataset.labels, source="the suite's data"
        )

    def label_list(self) -> list[Any] | None:
        return list(self.dataset.labels) if self.dataset.labels else None

    def probabilities(self, inputs: list[Any]) -> Any:
        """Label probabilities (rows × labels, float32 as the engine keeps them) for ``inputs`` from
        the model fitted (once, seed 0) on the suite's training rows: the robustness requirements
        share that one fit."""
        import numpy as np

        from shortcutlab.data.pairs import model_inputs
        from shortcutlab.models import make_model

        if self._fitted is None:
            train = self.tables()[0]
            labels = self.labels()
            model = make_model(self.model, self.params, seed=0)
            model.fit(
                model_inputs(train.frame),
                labels.ranks(train.frame[LABEL], where="The training split"),
                n_classes=len(labels),
            )
            self._fitted = model
        return np.asarray(self._fitted.predict_proba(inputs), dtype=np.float32)
