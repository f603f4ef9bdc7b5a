"""The check suite of a grid run, for the families that can write one (:data:`SUITE_WRITERS`,
keyed by family): the measured bounds plus ``margin``.

Maze: one ``maze`` requirement per shortcut × λ, ``max_delta`` the upper end of Δ's interval +
margin (rounded up), built as the run built it (build seed, val_size, seeds). Robustness: one
``robustness`` requirement per class, INV ``max_drop`` the drop's upper bound + margin, DIR
``min_pass_rate`` the toward-expected share's lower bound − margin (rounded down), each with the
class's params; the worst bound over the run's seeds. MPS: one ``mps`` requirement per attribute,
``max_delta`` the upper end of δ's (isolated) interval + margin.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd

from shortcutlab.check.saved import (
    check_margin,
    requirement_id,
    rounded_down,
    rounded_up,
)
from shortcutlab.errors import ConfigError, knob, listed
from shortcutlab.registry import Registry

HAND_WRITTEN = "write its requirements by hand (docs/how-to/check-in-ci.md)"


#: The families whose runs can write a suite, each with its writer (``writer(results, margin)``).
#: A registry here, not a piece of the Family record: check sits above the families.
SUITE_WRITERS: Registry[Any] = Registry("suite writer")
SUITE_WRITERS.add("maze", "shortcutlab.check.run_suites:maze_run_suite")
SUITE_WRITERS.add("mps", "shortcutlab.check.run_suites:mps_run_suite")
SUITE_WRITERS.add("robustness", "shortcutlab.check.run_suites:robustness_run_suite")


def run_suite(results: Any, margin: float) -> dict[str, Any]:
    """The suite of a run (``load_results``) from its family's writer (:data:`SUITE_WRITERS`);
    a family without one is refused in one line naming those that have it."""
    from shortcutlab.families import family_of

    family = family_of(results)
    if family.name not in SUITE_WRITERS.names():
        raise ConfigError(
            f"{knob('save_suite')} writes the suite of a run of one of the families "
            f"{listed(SUITE_WRITERS.names())}; this is a {family.name} run, so {HAND_WRITTEN}."
        )
    return SUITE_WRITERS.get(family.name)(results, check_margin(margin))


def _one_fit(frame: pd.DataFrame) -> None:
    """Refuse a run of more than one dataset or model: a suite checks one model on one data set."""
    for column, what in (("dataset", "datasets"), ("model", "models")):
        found = sorted(frame[column].dropna().astype(str).unique())
        if len(found) != 1:
            raise ConfigError(
                f"A suite checks one model on one dataset, and this run has {len(found)} {what} "
                f"({listed(found)}); run the grid with one, or {HAND_WRITTEN}."
            )


def _suite(results: Any, requirements: list[dict[str, Any]], **settings: Any) -> dict[str, Any]:
    """The suite mapping: name, the run's data, ``settings`` (those not at their default) and
    the requirements."""
    if not requirements:
        raise ConfigError(f"The run '{results.run_dir}' has no measured bound yet; run it first.")
    suite: dict[str, Any] = {
        "name": requirement_id(results.spec.get("name", "check")),
        "data": _run_data(results),
    }
    defaults = {"seeds": 1, "bootstrap": None, "seed": None}
    suite |= {k: v for k, v in settings.items() if v != defaults[k]}
    return suite | {"requirements": requirements}


def _built_suite(results: Any, requirements: list[dict[str, Any]]) -> dict[str, Any]:
    """The suite of a run that builds once (its ``build_seed``) and fits its seeds on it."""
    spec = results.spec
    return _suite(
        results,
        requirements,
        seeds=_fit_seeds(spec.get("seeds") or [0]),
        bootstrap=spec.get("bootstrap", 1000),
        seed=spec.get("build_seed", 0),
    )


def _fit_seeds(seeds: list[int]) -> int:
    """How many fits a suite makes: a suite fits seeds 0..N-1."""
    if seeds != list(range(len(seeds))):
        raise ConfigError(
            f"A suite fits seeds 0..N-1, and this run used {listed(seeds)}; run the grid with "
            "seeds 0..N-1 to save its suite."
        )
    return len(seeds)


def _run_data(results: Any) -> dict[str, Any]:
    """The run's dataset as a suite's data entry: a built-in as its generator settings, files by
    the paths its builds read (absolute, so the suite is read from anywhere)."""
    dataset = dict(results.spec["datasets"][0])
    dataset.pop("sha256", None)
    entry = {k: v for k, v in dataset.items() if v is not None}
    if "builtin" in entry:
        return entry
    for manifest in sorted(Path(results.run_dir, "benchmarks").glob("*/manifest.json")):
        inputs = json.loads(manifest.read_text(encoding="utf-8")).get("inputs") or {}
        paths = {role: (inputs.get(role) or {}).get("path") for role in ("train", "test")}
        if all(paths.values()):
            entry.update({role: str(Path(p).resolve()) for role, p in paths.items()})
            break
    return entry


def _measured(value: Any) -> bool:
    return value is not None and not pd.isna(value)


def maze_run_suite(results: Any, margin: float) -> dict[str, Any]:
    """A Maze run's suite: one maze requirement per shortcut × λ of its one model (erm rows)."""
    from shortcutlab.families.maze.spec import ShortcutSpec

    spec = results.spec
    groups = results.groups
    groups = groups[groups["mitigation"].fillna("erm") == "erm"]
    _one_fit(groups)
    shortcuts = {s.label: s for s in (ShortcutSpec.from_resolved(e) for e in spec["shortcuts"])}
    requirements = []
    for row in groups.sort_values(["shortcut", "strength"]).itertuples():
        if not _measured(row.delta_accuracy_ci_high):
            continue
        shortcut = shortcuts[row.shortcut]
        block: dict[str, Any] = {
            "shortcut": {"name": shortcut.name, **shortcut.options}
            if shortcut.options
            else shortcut.name,
            "strength": float(row.strength),
        }
        if spec.get("test_strength", 1.0) != 1.0:
            block["test_strength"] = spec["test_strength"]
        if spec.get("val_size"):
            block["val_size"] = spec["val_size"]
        requirements.append(
            {
                "id": requirement_id(row.shortcut, f"l{row.strength:g}"),
                "maze": block,
                "max_delta": rounded_up(float(row.delta_accuracy_ci_high) + margin),
            }
        )
    return _built_suite(results, requirements)


def robustness_run_suite(results: Any, margin: float) -> dict[str, Any]:
    """A robustness run's suite: one robustness requirement per class of its one model, the
    worst bound over its seeds; the check perturbs with the run's first seed."""
    classes = results.classes
    _one_fit(classes)
    params = results.spec.get("perturbations") or {}
    requirements = []
    for name, rows in classes.groupby("perturbation", sort=False):
        block: dict[str, Any] = {"perturbation": str(name)}
        if params.get(name):
            block["params"] = params[name]
        if (rows["kind"] == "DIR").any():
            lows = rows.get("toward_expected_ci_low", pd.Series(dtype=float)).dropna()
            if lows.empty:
                continue  # the expected label's probability moved on no changed row
            limit = {"min_pass_rate": max(0.0, rounded_down(float(lows.min()) - margin))}
        else:
            highs = rows["drop_ci_high"].dropna()
            if highs.empty:
                continue
            limit = {"max_drop": rounded_up(float(highs.max()) + margin)}
        requirements.append({"id": requirement_id(name), "robustness": block, **limit})
    return _suite(
        results,
        requirements,
        bootstrap=results.spec.get("bootstrap", 1000),
        seed=int(classes["seed"].min()),
    )


def mps_run_suite(results: Any, margin: float) -> dict[str, Any]:
    """An MPS run's suite: one mps requirement per attribute of its one model (erm rows),
    ``max_delta`` from δ's (isolated) upper bound."""
    spec = results.spec
    build = dict(spec.get("mps") or {})
    kept = {k: build.pop(k) for k in ("dominance", "label_mix") if k in build}
    names = {a.get("id", a["name"]): a["name"] for a in spec["attributes"]}
    optioned = [a["name"] for a in spec["attributes"] if set(a) - {"name", "id"}]
    if build or optioned or spec.get("vary", "model") != "model":
        what = listed(sorted(build) + optioned) if build or optioned else "vary: data"
        raise ConfigError(
            f"An mps requirement builds with only dominance and label_mix, and this run sets "
            f"{what}; run the grid without them, or {HAND_WRITTEN}."
        )
    groups = results.groups
    if "mitigation" in groups.columns:
        groups = groups[groups["mitigation"].fillna("erm") == "erm"]
    _one_fit(groups)
    requirements = []
    for row in groups.itertuples():
        if not _measured(row.delta_isolated_ci_high):
            continue
        requirements.append(
            {
                "id": requirement_id(row.attribute),
                "mps": {"attribute": names.get(row.attribute, str(row.attribute)), **kept},
                "max_delta": rounded_up(float(row.delta_isolated_ci_high) + margin),
            }
        )
    return _built_suite(results, requirements)
