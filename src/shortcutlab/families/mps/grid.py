"""Expand an MPS spec into builds (dataset, attribute, build seed) and cells (+ model,
mitigation, seed).

A cell fits its model on the Imbalanced and on the Balanced split of its build and predicts its
own test set and, with ``cross_test``, the test set of every other attribute built from the same
dataset with the same build seed (paper 002, A.7). Its id hashes everything that determines the
stored result, the cross-tested builds included, so a resumed or extended run recognises it.

Examples:
    >>> from shortcutlab.families.mps.spec import parse_mps_spec
    >>> spec = parse_mps_spec({"family": "mps", "data": {"builtin": "reviews"},
    ...     "attributes": ["negation", "question"], "models": ["tfidf-svm"], "seeds": [0, 1]})
    >>> builds, cells = plan_mps_grid(spec)
    >>> len(builds), len(cells), [b.label for b in cells[0].cross]
    (2, 4, ['question'])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from shortcutlab.engine.mitigation_spec import PLAIN, MitigationSpec
from shortcutlab.engine.replicates import plan_replicates
from shortcutlab.engine.spec_entries import DatasetSpec
from shortcutlab.engine.spec_identity import canonical_hash
from shortcutlab.families.mps.spec import AttributeSpec, MpsModelSpec, MpsSpec


@dataclass(frozen=True)
class MpsBuildPlan:
    """One MPS benchmark: a dataset's pool redistributed around one attribute, with one seed."""

    id: str
    dataset: DatasetSpec
    attribute: AttributeSpec
    build_seed: int
    config: dict[str, Any] = field(hash=False, compare=False)

    @property
    def label(self) -> str:
        return self.attribute.label


@dataclass(frozen=True)
class MpsCellPlan:
    id: str
    benchmark: MpsBuildPlan
    model: MpsModelSpec
    seed: int  # the replicate: what results group and show
    fit_seed: int  # the seed both fits use (see replicates.plan_replicates)
    cross: tuple[MpsBuildPlan, ...]  # the other attributes' builds whose test sets it predicts
    config: dict[str, Any] = field(hash=False, compare=False)
    mitigation: MitigationSpec = PLAIN  # the method both fits are trained under
    groups: str = "auto"
    group_labels: str = "train"


def plan_mps_grid(spec: MpsSpec) -> tuple[list[MpsBuildPlan], list[MpsCellPlan]]:
    """All builds and cells of the spec, in a fixed order (dataset, attribute, model, mitigation,
    seed)."""
    replicates = plan_replicates(spec.seeds, vary=spec.vary, build_seed=spec.build_seed)
    build_seeds = list(dict.fromkeys(r.build_seed for r in replicates))
    settings = spec.mitigation
    builds: dict[tuple[str, str, int], MpsBuildPlan] = {}
    for dataset in spec.datasets:
        for attribute in spec.attributes:
            for build_seed in build_seeds:
                config = {
                    "dataset": dataset.resolved(),
                    "attribute": attribute.resolved(),
                    "mps": spec.build,
                    "build_seed": build_seed,
                }
                digest = canonical_hash(config)
                builds[(dataset.name, attribute.label, build_seed)] = MpsBuildPlan(
                    f"{dataset.name}-{attribute.name}-{digest[:10]}",
                    dataset,
                    attribute,
                    build_seed,
                    config,
                )
    cells: list[MpsCellPlan] = []
    for dataset in spec.datasets:
        for attribute in spec.attributes:
            for model in spec.models:
                model_config = {"name": model.name, "params": model.params}
                if model.average_last_epochs:
                    model_config["average_last_epochs"] = model.average_last_epochs
                for mitigation in spec.mitigations:
                    for replicate in replicates:
                        build = builds[(dataset.name, attribute.label, replicate.build_seed)]
                        cross = tuple(
                            builds[(dataset.name, other.label, replicate.build_seed)]
                            for other in spec.attributes
                            if spec.cross_test and other.label != attribute.label
                        )
                        config = {
                            "benchmark": build.config,
                            "model": model_config,
                            "seed": replicate.fit_seed,
                            "cross_test": [b.config for b in cross],
                            **mitigation.cell_config(settings.groups, settings.group_labels),
                        }
                        cells.append(
                            MpsCellPlan(
                                canonical_hash(config),
                                build,
                                model,
                                replicate.seed,
                                replicate.fit_seed,
                                cross,
                                config,
                                mitigation,
                                settings.groups,
                                settings.group_labels,
                            )
                        )
    return list(builds.values()), cells
