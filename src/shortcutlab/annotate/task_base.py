"""What the task kinds share: choice forms and their answer check, the seeded sample, and the
yes / no / unsure share tables of the two verification tasks."""

from __future__ import annotations

import string
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from shortcutlab.annotate.kinds import Choice, Field, Form, TaskKind
from shortcutlab.errors import ConfigError, DataError, listed
from shortcutlab.metrics.attentiveness import wilson_interval

YES, NO, UNSURE = "yes", "no", "unsure"
# Keys for up to 36 choices: digits first (1..9, 0), then letters.
CHOICE_KEYS = tuple("123456789") + ("0",) + tuple(string.ascii_lowercase)
INTERVAL_NOTE = (
    "Interval: Wilson 95 % over the judged items (unsure answers left out); it ignores the "
    "variance between annotators and between samples of items."
)
POOLED_NOTE = (
    "Pooled over annotators: each item counts once, by the majority of its yes / no answers "
    "(no_majority: a tie or only unsure answers, left out of the share); answers counts the "
    "judgments. Its Wilson 95 % interval is over those items: it ignores the annotators' "
    "disagreement on an item and the variance between samples of items."
)


def yes_no_unsure(name: str, prompt: str) -> Field:
    return Field(
        name=name,
        prompt=prompt,
        choices=(
            Choice(value=YES, text="Yes", key="y"),
            Choice(value=NO, text="No", key="n"),
            Choice(value=UNSURE, text="Unsure", key="u"),
        ),
    )


def keyed_choices(values: Sequence[str], texts: Sequence[str] | None = None) -> tuple[Choice, ...]:
    """One choice per value with its key (1..9, 0); ``texts`` are the buttons' words if given."""
    texts = [str(v) for v in values] if texts is None else list(texts)
    if len(values) > len(CHOICE_KEYS):
        raise ConfigError(
            f"A choice field has at most {len(CHOICE_KEYS)} choices (one key each); got "
            f"{len(values)}. Annotate a benchmark with fewer labels."
        )
    return tuple(
        Choice(value=str(v), text=text, key=key)
        for v, text, key in zip(values, texts, CHOICE_KEYS, strict=False)
    )


def check_sample(sample: int, seed: int) -> None:
    if isinstance(sample, bool) or not isinstance(sample, int | np.integer) or sample < 1:
        raise ConfigError(f"--sample must be a whole number >= 1. Got {sample!r} instead.")
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise ConfigError(f"--seed must be a whole number >= 0. Got {seed!r} instead.")


def seeded_sample(rows: int, sample: int, seed: int) -> np.ndarray:
    """Positions of ``min(sample, rows)`` rows drawn without replacement, in the drawn order
    (the order shown), the same for the same seed."""
    return np.random.default_rng(seed).permutation(rows)[:sample]


class ChoiceTask(TaskKind):
    """A task kind whose form is a set of choice fields; an answer names one choice per field."""

    def check_answer(self, form: Form, answer: Any) -> dict[str, str]:
        if not isinstance(answer, dict):
            raise DataError(
                f"An answer is an object {{field: choice}}; got {type(answer).__name__}."
            )
        names = [f.name for f in form.fields]
        missing = [n for n in names if n not in answer]
        unknown = sorted(str(k) for k in answer if k not in names)
        if missing or unknown:
            raise DataError(
                f"The answer must give exactly the fields {', '.join(names)}; "
                + (f"missing {listed(missing)}" if missing else f"unknown {listed(unknown)}")
                + "."
            )
        checked = {}
        for field in form.fields:
            value = answer[field.name]
            allowed = [c.value for c in field.choices]
            if not isinstance(value, str) or value not in allowed:
                raise DataError(
                    f"The field '{field.name}' takes one of {listed(allowed)}; got {value!r}."
                )
            checked[field.name] = value
        return checked


def field_answers(answers: pd.DataFrame, field: str) -> pd.DataFrame:
    """One field's answers: columns item_id, annotator, value."""
    chosen = answers[answers["field"] == field]
    return chosen[["item_id", "annotator", "value"]].reset_index(drop=True)


def share_row(values: Sequence[str]) -> dict[str, Any]:
    """Counts of yes / no / unsure and the share of yes among the yes-or-no answers, with its
    Wilson interval (NaN without a judged item)."""
    values = list(values)
    yes, no, unsure = (values.count(v) for v in (YES, NO, UNSURE))
    judged = yes + no
    low, high = wilson_interval(yes, judged) if judged else (np.nan, np.nan)
    return {
        "items": len(values),
        "yes": yes,
        "no": no,
        "unsure": unsure,
        "share_yes": yes / judged if judged else np.nan,
        "ci_low": low,
        "ci_high": high,
    }


def share_table(answers: pd.DataFrame, field: str, name: str) -> pd.DataFrame:
    """Per annotator: the :func:`share_row` of ``field``, the share column renamed ``name``.
    The pooled figure is :func:`pooled_share_table`'s, a table of its own: no annotator's name
    can take its row."""
    chosen = field_answers(answers, field)
    rows = {who: share_row(part["value"].tolist()) for who, part in chosen.groupby("annotator")}
    table = pd.DataFrame.from_dict(rows, orient="index").rename(columns={"share_yes": name})
    table.index.name = "annotator"
    return table


def majority(values: Sequence[str], sides: tuple[str, str] = (YES, NO)) -> str:
    """The one of the two ``sides`` (yes or no) that outnumbers the other among ``values``;
    unsure for a tie (or none): answers outside ``sides`` count for neither."""
    first, second = (list(values).count(side) for side in sides)
    return sides[0] if first > second else sides[1] if second > first else UNSURE


def pooled_share_row(chosen: pd.DataFrame) -> dict[str, Any]:
    """All annotators' answers (columns item_id, value), each item counted once by the
    :func:`majority` of its answers, so the Wilson interval is over items, not over repeated
    judgments of one item."""
    per_item = chosen.groupby("item_id", sort=False)["value"].agg(list)
    row = share_row([majority(values) for values in per_item])
    counts = {"yes": "majority_yes", "no": "majority_no", "unsure": "no_majority"}
    return {"items": row.pop("items"), "answers": len(chosen)} | {
        counts.get(key, key): value for key, value in row.items()
    }


def pooled_share_table(chosen: pd.DataFrame, name: str, by: Sequence[str] = ()) -> pd.DataFrame:
    """:func:`pooled_share_row` per group of ``by`` (one row, 'all annotators', without), the
    share column renamed ``name``."""
    if by:
        groups = chosen.groupby(list(by), sort=False)
        rows = {key: pooled_share_row(part) for key, part in groups}
        table = pd.DataFrame.from_dict(rows, orient="index")
        table.index = pd.MultiIndex.from_tuples(table.index, names=list(by))
    else:
        table = pd.DataFrame.from_dict({"all annotators": pooled_share_row(chosen)}, orient="index")
        table.index.name = "pooled"
    return table.rename(columns={"share_yes": name})


__all__ = [
    "CHOICE_KEYS",
    "INTERVAL_NOTE",
    "NO",
    "POOLED_NOTE",
    "UNSURE",
    "YES",
    "ChoiceTask",
    "check_sample",
    "field_answers",
    "keyed_choices",
    "majority",
    "pooled_share_row",
    "pooled_share_table",
    "seeded_sample",
    "share_row",
    "share_table",
    "yes_no_unsure",
]
