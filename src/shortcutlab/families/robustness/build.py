"""Build a robustness benchmark: the original test rows and, per perturbation class, the rows it
changed, each paired to its source row by ``row_id``, with a manifest recording every class's
kind (INV or DIR), parameters, library and version, and seed.

Examples:
    >>> import pandas as pd
    >>> test = pd.DataFrame({"text": ["Good film.", "bad plot"], "label": ["pos", "neg"]})
    >>> bench = build_robustness_benchmark(test, perturbations=["case-upper"], labels=["neg", "pos"])
    >>> list(bench), bench["case-upper"]["text"].tolist()
    (['test', 'case-upper'], ['GOOD FILM.', 'BAD PLOT'])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from shortcutlab.data.benchmark import Benchmark, check_build_start, save_splits
from shortcutlab.data.column_names import LABEL, ROW_ID, TEXT
from shortcutlab.data.labels import LabelSpace
from shortcutlab.data.options import InputOptions, reading_options
from shortcutlab.errors import ConfigError, DataError, knob, listed
from shortcutlab.families.robustness import FAMILY
from shortcutlab.params import quoted
from shortcutlab.provenance import environment, tool_record

if TYPE_CHECKING:
    import pandas as pd

#: The splits a build writes besides one per class: the model's training rows (optional) and the
#: original test rows; a class may not take either name.
ORIGINAL, TRAIN = "test", "train"


def parse_perturbations(
    perturbations: str | Sequence[str] | Mapping[str, Mapping[str, Any] | None],
) -> dict[str, dict[str, Any]]:
    """The classes to apply and each one's parameters, in the order given: a comma-separated
    string, a list of names, or a mapping of name to parameters. Unknown names are refused with
    the close matches.

    Examples:
        >>> parse_perturbations("case-upper, case-lower")
        {'case-upper': {}, 'case-lower': {}}
    """
    from shortcutlab.perturb import PERTURBATIONS, perturbation_names, resolve

    if isinstance(perturbations, str):
        perturbations = [p.strip() for p in perturbations.split(",") if p.strip()]
    if isinstance(perturbations, Mapping):
        chosen = {str(k): dict(v or {}) for k, v in perturbations.items()}
    else:
        names = list(perturbations)
        repeated = sorted({n for n in names if names.count(n) > 1})
        if repeated:
            raise ConfigError(
                f"{knob('perturbations')} names {listed(repeated)} more than once. Give each "
                "class once."
            )
        chosen = {str(name): {} for name in names}
    if not chosen:
        raise ConfigError(
            f"{knob('perturbations')} names no perturbation class. Give at least one of "
            f"{listed(perturbation_names())}."
        )
    for name in chosen:
        PERTURBATIONS.get(resolve(name)[0])  # an unknown name: one line with the close matches
        if name in (ORIGINAL, TRAIN):
            raise ConfigError(f"A perturbation class may not be named {quoted(name)}.")
    return chosen


def build_robustness_benchmark(
    test: str | Path | Any,
    *,
    perturbations: str | Sequence[str] | Mapping[str, Mapping[str, Any] | None],
    train: str | Path | Any | None = None,
    labels: Sequence[Any] | None = None,
    seed: int = 0,
    text_col: str | None = None,
    label_col: str | None = None,
    text_pair_col: str | None = None,
    encoding: str | None = None,
    on_empty: str | None = None,
    inputs: InputOptions | None = None,
) -> Benchmark:
    """Perturb the rows of ``test`` with each class of ``perturbations`` (names, or a mapping of
    name to parameters) under ``seed``; ``train``, when given, is kept as the split models are
    fitted on. ``labels`` fixes the label order (DIR classes name labels by value). The columns
    and the output folder come as in every build (``text_col=...``, or ``inputs``).
    """
    inputs = reading_options(
        "build_robustness_benchmark",
        inputs,
        InputOptions,
        text_col=text_col,
        label_col=label_col,
        text_pair_col=text_pair_col,
        encoding=encoding,
        on_empty=on_empty,
    )
    chosen = parse_perturbations(perturbations)
    check_build_start(inputs.fmt, seed, inputs.out, inputs.overwrite, (test, train))
    test_table = inputs.read(test, role="test")
    train_table = None if train is None else inputs.read(train, role="train")
    frame = test_table.frame
    observed = frame[LABEL].tolist() + (
        [] if train_table is None else train_table.frame[LABEL].tolist()
    )
    space = LabelSpace.infer(observed, given=labels, source="the test table")
    splits: dict[str, pd.DataFrame] = {} if train_table is None else {TRAIN: train_table.frame}
    splits[ORIGINAL] = frame
    records = {}
    for name, params in chosen.items():
        splits[name], records[name] = perturbed_split(frame, space, name, params, seed)
    manifest = {
        "tool": tool_record(),
        "kind": FAMILY.manifest_kind,
        "arguments": {
            "perturbations": list(chosen),
            "seed": int(seed),
            "labels": space.to_json(),
            **inputs.reading(),
        },
        "seed": int(seed),
        "labels": space.to_json(),
        "perturbations": records,
        "environment": environment(),
        "inputs": {
            "test": test_table.source.to_json(),
            "train": None if train_table is None else train_table.source.to_json(),
        },
        "splits": {name: {"rows": len(split)} for name, split in splits.items()},
    }
    if inputs.out is None:
        return Benchmark(splits, space, manifest)
    written = save_splits(splits, manifest, inputs.out, fmt=inputs.fmt, overwrite=inputs.overwrite)
    return Benchmark(splits, space, written, Path(inputs.out))


def perturbed_split(
    frame: pd.DataFrame, space: LabelSpace, name: str, params: Mapping[str, Any], seed: int
) -> tuple[pd.DataFrame, dict[str, Any]]:
    """The rows of ``frame`` that class ``name`` changed (their ``row_id`` kept; for a DIR class
    the label is the one the prediction should move to, and rows without one are left out) and
    the manifest's record of the class."""
    from shortcutlab.perturb import PERTURBATIONS, make_perturbation, resolve

    kind = PERTURBATIONS.capabilities(resolve(name)[0])["kind"]
    instance = make_perturbation(name, params)
    ranks = space.ranks(frame[LABEL], where="the test table")
    done = instance.apply(frame[TEXT].tolist(), ranks, label_values=list(space.values), seed=seed)
    keep = np.asarray(done.changed, dtype=bool)
    perturbed = frame.assign(**{TEXT: done.texts})
    if kind == "DIR":
        if done.expected is None:
            raise DataError(f"The DIR class {quoted(name)} declared no expected labels.")
        expected = np.asarray(done.expected)
        keep &= expected >= 0
        values = np.asarray(space.values, dtype=object)
        perturbed[LABEL] = np.where(expected >= 0, values[np.maximum(expected, 0)], frame[LABEL])
    rows = perturbed[keep].reset_index(drop=True)
    if rows.empty:  # a class on no rows measures nothing, and an empty split cannot be read back
        raise DataError(
            f"The perturbation {quoted(name)} changed none of the {len(frame)} test rows"
            + (" that have an expected label" if kind == "DIR" else "")
            + ", so it measures nothing; leave it out of the perturbations."
        )
    if frame[ROW_ID].duplicated().any():
        raise DataError("The test table repeats a row_id; perturbed rows are paired by it.")
    record = {
        "kind": kind,
        "params": _json_params(instance.get_params()),
        "provenance": instance.provenance(),
        "seed": int(seed),
        "rows_changed": int(np.asarray(done.changed).sum()),
        "rows": len(rows),
    }
    return rows, record


def _json_params(params: Mapping[str, Any]) -> dict[str, Any]:
    """A class's parameters as the manifest stores them (tuples as lists)."""
    import json

    return json.loads(json.dumps(dict(params), default=list))
