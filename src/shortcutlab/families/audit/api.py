"""``audit_dataset``: the whole audit from files (or DataFrames) to the result and its folder."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from shortcutlab.data.canonical import check_distinct_columns
from shortcutlab.data.label_agreement import agree_labels
from shortcutlab.data.loading import LABEL, TEXT, load_table
from shortcutlab.data.writing import check_output_dir
from shortcutlab.families.audit.features import FeatureConfig
from shortcutlab.families.audit.output import write_audit
from shortcutlab.families.audit.part_names import part_names
from shortcutlab.families.audit.run import AuditResult, MeasureConfig, load_inputs, run_audit
from shortcutlab.families.audit.scan import ScanConfig


def audit_dataset(
    data: Any,
    test: Any | None = None,
    *,
    text_col: str = TEXT,
    label_col: str = LABEL,
    text_pair_col: str | None = None,
    labels: Sequence[Any] | None = None,
    metadata: Sequence[str] = (),
    features: FeatureConfig | None = None,
    correction: str = "bh",
    alpha: float = 0.05,
    model: str | None = None,
    params: Mapping[str, Any] | None = None,
    measure_top: int = 10,
    holdout: float = 0.2,
    seed: int = 0,
    top: int = 20,
    encoding: str = "utf-8",
    out: str | Path | None = None,
    overwrite: bool = False,
) -> AuditResult:
    """Scan ``data`` (a path, DataFrame or ``datasets.Dataset``) for latent shortcuts and, with
    ``model`` (a registered name, fitted on ``data``, or a saved scikit-learn pipeline), measure
    its reliance on the ``measure_top`` strongest; write ``audit.json`` and ``audit.csv`` to
    ``out``. ``metadata`` names columns to test besides the text; ``features`` says which
    indicators are built (default: words and bigrams, negation, question, frequent words,
    surface properties, the packaged lexicons).

    Word lists: ``FeatureConfig(lexicons={name: phrases})`` adds your lists to the packaged ones
    (a list named like a packaged one replaces it); ``packaged_lexicons=False`` leaves the
    packaged ones out. The command line is the same: ``--lexicon NAME=PATH`` adds,
    ``--no-packaged-lexicons`` leaves out.

    Examples:
        >>> import pandas as pd
        >>> texts = [f"honestly item {i}" if i % 3 else f"item {i}" for i in range(120)]
        >>> rows = pd.DataFrame({"text": texts, "label": [int(i % 3 > 0) for i in range(120)]})
        >>> result = audit_dataset(rows, features=FeatureConfig(surface=False, attributes=()))
        >>> top = result.table.iloc[0]
        >>> top["candidate"], top["label"], bool(top["significant"])
        ('honestly', 1, True)
    """
    if out is not None:
        check_output_dir(Path(out), overwrite=overwrite)
    features = features or FeatureConfig()
    if metadata and tuple(metadata) != tuple(features.metadata):
        features = replace(features, metadata=tuple(metadata))
    scan_config = ScanConfig(features=features, correction=correction, alpha=alpha, seed=seed)
    scan_config.check()
    measure = None
    if model is not None:
        measure = MeasureConfig(
            model=model, params=dict(params or {}), top=measure_top, holdout=holdout
        )
        measure.check()
    columns: dict[str, Any] = dict(
        text_col=text_col,
        label_col=label_col,
        text_pair_col=text_pair_col,
        metadata=tuple(features.metadata),
        encoding=encoding,
    )
    train, test_inputs, sources = _read_inputs(data, test, columns, labels)
    result = run_audit(
        train,
        test_inputs,
        scan_config=scan_config,
        measure=measure,
        top=top,
        sources=sources,
        part_names=part_names(text_col, text_pair_col),
    )
    if out is not None:
        write_audit(result, out, overwrite=overwrite)
    return result


def _read_inputs(
    data: Any, test: Any | None, columns: dict[str, Any], labels: Sequence[Any] | None
) -> tuple[Any, Any, dict[str, Any]]:
    """The audit's training and test inputs (their labels agreed across the files) and each
    file's source record."""
    check_distinct_columns(
        [
            ("text-col", columns["text_col"]),
            ("label-col", columns["label_col"]),
            ("text-pair-col", columns["text_pair_col"]),
        ]
        + [("meta-col", name) for name in columns["metadata"]]
    )
    reading = {k: columns[k] for k in ("text_col", "label_col", "text_pair_col", "encoding")}
    tables = {"train": load_table(data, role="train", **reading)}
    if test is not None:
        tables["test"] = load_table(test, role="test", **reading)
    tables = agree_labels(tables)  # a test file's labels meet the training file's here
    train, _ = load_inputs(tables["train"], role="train", given_labels=labels, **columns)
    test_inputs = None
    if test is not None:
        test_inputs, _ = load_inputs(tables["test"], role="test", labels=train.labels, **columns)
    return train, test_inputs, {role: table.source.to_json() for role, table in tables.items()}
