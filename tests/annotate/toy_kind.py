"""A test-local task kind and the helpers to serve it: rows from ``SOURCE/rows.csv``, two
questions per row (its label, and whether the annotator is sure), the cue's span recorded in the
payload.

``toy_kind_installed()`` registers it in ``shortcutlab.annotate.tasks.TASK_KINDS`` for the length
of a ``with`` block; ``python -m tests.annotate.toy_kind ARGS`` runs the CLI with it registered,
for the real-server tests.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from shortcutlab.annotate.kinds import Choice, Field, Form, Item, Summary, TaskKind, TaskPlan
from shortcutlab.annotate.tasks import TASK_KINDS
from shortcutlab.errors import DataError

ROOT = Path(__file__).resolve().parents[2]
TOY = "toy-label"
XSS_TEXTS = ("<script>alert(1)</script>", '"><img src=x onerror=alert(1)>')
FORM = Form(
    fields=(
        Field(
            name="label",
            prompt="Which label fits the text?",
            choices=(Choice("negative", "negative", "1"), Choice("positive", "positive", "2")),
        ),
        Field(
            name="sure",
            prompt="Are you sure?",
            choices=(Choice("yes", "yes", "y"), Choice("no", "no", "n")),
        ),
    )
)
# What each key stands for, so tests can turn the keys they press into the answers they expect.
KEY_VALUES = {choice.key: choice.value for field in FORM.fields for choice in field.choices}


class ToyLabelKind(TaskKind):
    name = TOY
    description = "Label each sampled row, and say whether you are sure (a test-local kind)."

    def plan(self, source: Path, *, sample: int, seed: int, **options: Any) -> TaskPlan:
        table_path = Path(source) / "rows.csv"
        if not table_path.is_file():
            raise DataError(
                f"'{source}' has no rows.csv: pass a folder written by write_toy_source."
            )
        table = pd.read_csv(table_path, dtype={"row_id": str, "text": str, "label": str})
        rng = np.random.default_rng(seed)
        picked = rng.permutation(len(table))[:sample]
        items = [
            Item(
                item_id=table.row_id[i],
                payload={"text": table.text[i], "text_spans": json.loads(table.cue_span[i])},
                reference={"label": table.label[i]},
            )
            for i in picked
        ]
        return TaskPlan(
            kind=TOY, source=str(source), form=FORM, items=items, facts={"rows": len(table)}
        )

    def check_answer(self, form: Form, answer: Any) -> dict[str, str]:
        if not isinstance(answer, dict) or set(answer) != {field.name for field in form.fields}:
            names = ", ".join(field.name for field in form.fields)
            raise DataError(f"an answer must give exactly the fields {names}; got {answer!r}")
        for field in form.fields:
            allowed = [choice.value for choice in field.choices]
            if answer[field.name] not in allowed:
                raise DataError(
                    f"{field.name} must be one of {allowed}; got {answer[field.name]!r}"
                )
        return {name: str(value) for name, value in answer.items()}

    def summarise(self, plan: TaskPlan, answers: pd.DataFrame) -> Summary:
        gold = {item.item_id: item.reference["label"] for item in plan.items}
        labels = answers[answers.field == "label"]
        correct = labels.value == labels.item_id.map(gold)
        table = pd.DataFrame({"accuracy": correct.groupby(labels.annotator).mean()})
        return Summary(kind=TOY, title="Toy accuracy", tables={"accuracy": ("Accuracy", table)})


def write_toy_source(folder: Path, rows: int = 6) -> Path:
    """A source folder with ``rows`` rows; the first two hold the XSS texts."""
    folder.mkdir(parents=True, exist_ok=True)
    texts = [*XSS_TEXTS, *(f"row {i} says the film was great" for i in range(2, rows))][:rows]
    table = pd.DataFrame(
        {
            "row_id": [f"r{i}" for i in range(rows)],
            "text": texts,
            "label": ["positive" if i % 2 else "negative" for i in range(rows)],
            # the cue: the text's first word
            "cue_span": [json.dumps([[0, len(text.split(" ")[0])]]) for text in texts],
        }
    )
    table.to_csv(folder / "rows.csv", index=False)
    return folder


@contextlib.contextmanager
def toy_kind_installed() -> Iterator[None]:
    """The toy kind registered as the real kinds are (a class in ``TASK_KINDS``), then removed."""
    TASK_KINDS.add(TOY, ToyLabelKind)
    try:
        yield
    finally:
        TASK_KINDS.remove(TOY)


def cli_process(*arguments: str) -> subprocess.Popen[str]:
    """``shortcutlab ARGUMENTS`` in a new process with the toy kind installed."""
    environment = dict(os.environ)
    environment["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), str(ROOT)])
    environment["PYTHONUNBUFFERED"] = "1"
    return subprocess.Popen(
        [sys.executable, "-m", "tests.annotate.toy_kind", *arguments],
        cwd=ROOT,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


if __name__ == "__main__":
    TASK_KINDS.add(TOY, ToyLabelKind)
    from shortcutlab.cli.app import app

    app(sys.argv[1:], prog_name="shortcutlab")
