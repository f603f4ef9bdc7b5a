"""``label``: people label a seeded sample of test rows; their accuracy and W-ACC next to the
models' on the same rows, laid out as the MPS paper's Table 5 (paper 002, §4.3: rows per
spurious type, Human then the model; columns per data set, W-ACC then ACC).

W-ACC is the paper's variant (A.5.1): the lowest per-label accuracy, over the labels present
among the judged rows. The models' predictions on the sampled rows are read from the run's store
when the task is created, so the summary needs nothing but the task folder.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from shortcutlab.annotate.kinds import Field, Form, Item, Summary, TaskPlan
from shortcutlab.annotate.sources import (
    is_run,
    load_build,
    model_predictions,
    source_builds,
)
from shortcutlab.annotate.task_base import (
    ChoiceTask,
    check_sample,
    field_answers,
    keyed_choices,
    seeded_sample,
)
from shortcutlab.data.loading import LABEL, ROW_ID, TEXT, TEXT_PAIR
from shortcutlab.errors import ConfigError, DataError, listed
from shortcutlab.families import FAMILIES, run_family
from shortcutlab.metrics.classification import accuracy
from shortcutlab.metrics.worst_group import worst_label_accuracy

FIELD = "label"
HUMAN = "Human"
METRICS = ("W-ACC", "ACC", "rows")


class LabelTask(ChoiceTask):
    name = "label"
    description = (
        "Label a seeded sample of test rows: human accuracy and W-ACC next to the models'."
    )

    def plan(self, source: Path, *, sample: int, seed: int, **options: Any) -> TaskPlan:
        check_sample(sample, seed)
        source = Path(source)
        if is_run(source) and FAMILIES.get(run_family(source)).prediction_splits is None:
            runs = " or ".join(
                FAMILIES.get(n).title for n in FAMILIES.names() if FAMILIES.get(n).prediction_splits
            )
            raise DataError(
                f"'{source}' is a {run_family(source)} run; the label task needs a {runs} run "
                "or a benchmark folder with a test split."
            )
        builds = source_builds(source, benchmark=options.get("benchmark"))
        items: list[Item] = []
        label_sets: list[tuple[str, ...]] = []
        facts: dict[str, Any] = {"split": "test", "builds": {}}
        for number, build in enumerate(builds):
            benchmark = load_build(build)
            if "test" not in benchmark.splits:
                raise DataError(
                    f"The benchmark '{build.folder}' has no test split; the label task samples "
                    "test rows. Pass a Maze or MPS build."
                )
            test = benchmark["test"]
            chosen = test.iloc[seeded_sample(len(test), sample, seed + number)]
            row_ids = chosen[ROW_ID].to_numpy()
            models = model_predictions(source, build, row_ids)
            label_sets.append(tuple(str(v) for v in benchmark.labels.values))
            facts["builds"][build.benchmark_id] = {
                "dataset": build.dataset,
                "shortcut": build.shortcut,
                "test_rows": len(test),
                "sampled": len(chosen),
                "models": sorted(models),
            }
            prefix = f"{build.benchmark_id}/" if len(builds) > 1 or not build.cells.empty else ""
            for position, row in enumerate(chosen.itertuples(index=False)):
                record = row._asdict()
                payload = {"text": str(record[TEXT])}
                if TEXT_PAIR in record and record[TEXT_PAIR] is not None:
                    payload["text_pair"] = str(record[TEXT_PAIR])
                items.append(
                    Item(
                        item_id=f"{prefix}{record[ROW_ID]}",
                        payload=payload,
                        reference={
                            "label": str(record[LABEL]),
                            "build": build.benchmark_id,
                            "dataset": build.dataset,
                            "shortcut": build.shortcut,
                            "row_id": int(record[ROW_ID]),
                            "models": {name: models[name][position] for name in sorted(models)},
                        },
                    )
                )
        labels = label_sets[0]
        if any(s != labels for s in label_sets):
            raise DataError(
                "The run's builds have different label sets; create one label task per build with "
                "benchmark=BUILD_ID."
            )
        facts["labels"] = list(labels)
        names = label_names(options.get("label_names"), labels)
        if names is not None:
            facts["label_names"] = names
        form = Form(
            fields=(
                Field(
                    name=FIELD,
                    prompt="Which label fits this text?",
                    choices=keyed_choices(labels, names or button_texts(labels)),
                ),
            )
        )
        return TaskPlan(kind=self.name, source=str(source), form=form, items=items, facts=facts)

    def summarise(self, plan: TaskPlan, answers: pd.DataFrame) -> Summary:
        labels = [str(v) for v in plan.facts["labels"]]
        reference = {item.item_id: item.reference for item in plan.items}
        judged = field_answers(answers, FIELD)
        table = table5(judged, reference, labels)
        notes = [
            "W-ACC: the lowest per-label accuracy (MPS paper 002, A.5.1) over the labels present "
            "among the judged rows; ACC: accuracy. Each person is scored on the rows they judged, "
            "each model on the rows at least one person judged ('rows' says how many).",
            "No interval: with a few dozen rows per build these are point estimates; a label "
            "with few judged rows makes W-ACC coarse.",
        ]
        if any("(Balanced)" in model for item in plan.items for model in item.reference["models"]):
            notes.append(
                "An MPS model's metrics average over its stored epochs (the paper's mean of the "
                "final epochs); (Imbalanced) / (Balanced) name the training set of the fit."
            )
        return Summary(
            kind=self.name,
            title="Human labels against the models (MPS Table 5 layout)",
            tables={"table5": ("Human and model W-ACC and ACC on the same rows", table)},
            notes=notes,
        )


def table5(
    judged: pd.DataFrame, reference: dict[str, dict[str, Any]], labels: list[str]
) -> pd.DataFrame:
    """Rows (shortcut, who), columns (dataset, W-ACC / ACC / rows)."""
    rank = {label: i for i, label in enumerate(labels)}
    cells: dict[tuple[str, str], dict[tuple[str, str], Any]] = {}
    judged = judged.assign(build=judged["item_id"].map(lambda i: reference[i]["build"]))
    for _, part in judged.groupby("build", sort=False):
        first = reference[part["item_id"].iloc[0]]
        dataset, shortcut = first["dataset"], first["shortcut"]
        for annotator, own in part.groupby("annotator"):
            truth = [rank[reference[i]["label"]] for i in own["item_id"]]
            said = [[rank[v]] for v in own["value"]]
            cells.setdefault((shortcut, f"{HUMAN}: {annotator}"), {}).update(
                _scores(dataset, truth, said, len(labels))
            )
        items = list(dict.fromkeys(part["item_id"]))
        truth = [rank[reference[i]["label"]] for i in items]
        for model in sorted(reference[items[0]]["models"]):
            said = [[rank[v] for v in reference[i]["models"][model]] for i in items]
            cells.setdefault((shortcut, model), {}).update(
                _scores(dataset, truth, said, len(labels))
            )
    table = pd.DataFrame.from_dict(cells, orient="index")
    table.index = pd.MultiIndex.from_tuples(table.index, names=["shortcut", "who"])
    datasets = list(dict.fromkeys(d for d, _ in table.columns))
    table = table[[(d, m) for d in datasets for m in METRICS]]
    table.columns = pd.MultiIndex.from_tuples(table.columns, names=["dataset", "metric"])
    order = sorted(table.index, key=lambda k: (k[0], not k[1].startswith(HUMAN), k[1]))
    return table.loc[order]


def _scores(
    dataset: str, truth: list[int], said: list[list[int]], n_classes: int
) -> dict[tuple[str, str], Any]:
    """W-ACC and ACC, each the mean over the epochs of ``said`` (one prediction per epoch per row)."""
    y_true = np.asarray(truth)
    epochs = np.asarray(said).T  # (epochs, rows)
    w_acc = [worst_label_accuracy(y_true=y_true, y_pred=e, n_classes=n_classes)[0] for e in epochs]
    acc = [accuracy(y_true=y_true, y_pred=e) for e in epochs]
    return {
        (dataset, "W-ACC"): float(np.mean(w_acc)),
        (dataset, "ACC"): float(np.mean(acc)),
        (dataset, "rows"): len(truth),
    }


__all__ = ["LabelTask", "table5"]


def button_texts(labels: Sequence[str]) -> list[str]:
    """The buttons' words without --label-names: "label 0" for a number, so that the key cap "1"
    next to the label "0" cannot read as "10"; other labels as they are."""
    return [f"label {label}" if _is_number(label) else str(label) for label in labels]


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def label_names(given: str | Sequence[str] | None, labels: Sequence[str]) -> list[str] | None:
    """The buttons' words for ``labels`` (a comma-separated string or a list, one per label)."""
    if given is None:
        return None
    names = [n.strip() for n in given.split(",")] if isinstance(given, str) else list(given)
    if len(names) != len(labels) or not all(names):
        raise ConfigError(
            f"--label-names gives {len(names)} names for the {len(labels)} labels "
            f"{listed(labels)}; give one non-empty name per label, in that order."
        )
    repeated = sorted({str(n) for n in names if [str(m) for m in names].count(str(n)) > 1})
    if repeated:  # two buttons with one word: an answer could not say which label was meant
        raise ConfigError(
            f"--label-names gives the name {listed(repeated, show=repr)} to more than one of "
            f"the labels {listed(labels)}; give each label its own name."
        )
    return [str(name) for name in names]
