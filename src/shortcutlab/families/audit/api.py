"""``audit_dataset``: the whole audit from files (or DataFrames) to the result and its folder."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from shortcutlab.data.benchmark import original_test_beside
from shortcutlab.data.canonical import check_distinct_columns
from shortcutlab.data.label_agreement import agree_labels
from shortcutlab.data.loading import LABEL, TEXT, TEXT_PAIR
from shortcutlab.data.options import ReadingOptions, reading_options
from shortcutlab.data.writing import check_output_dir
from shortcutlab.errors import ConfigError, knob
from shortcutlab.families.audit.repair.config import FixConfig, check_fix_model
from shortcutlab.families.audit.report.audit_record import AuditResult
from shortcutlab.families.audit.report.output import write_audit
from shortcutlab.families.audit.run import MeasureConfig, load_inputs, run_audit
from shortcutlab.families.audit.scan.features import FeatureConfig
from shortcutlab.families.audit.scan.stage import ScanConfig
from shortcutlab.families.audit.triage.config import TriageConfig
from shortcutlab.llm import LLMClient
from shortcutlab.models.adapters import resolve_model


def audit_dataset(
    data: Any,
    test: Any | None = None,
    *,
    text_col: str | None = None,
    label_col: str | None = None,
    text_pair_col: str | None = None,
    labels: Sequence[Any] | None = None,
    metadata: Sequence[str] = (),
    features: FeatureConfig | None = None,
    correction: str = "bh",
    alpha: float = 0.05,
    model: Any = None,
    params: Mapping[str, Any] | None = None,
    measure_top: int = 10,
    holdout: float = 0.2,
    seed: int = 0,
    top: int = 20,
    encoding: str | None = None,
    on_empty: str | None = None,
    inputs: ReadingOptions | None = None,
    out: str | Path | None = None,
    overwrite: bool = False,
    fix: FixConfig | None = None,
    label_names: Mapping[Any, str] | None = None,
    judgements: str | Path | Mapping[str, Any] | None = None,
    judge: Mapping[str, Any] | LLMClient | None = None,
    progress: Callable[[str], None] | None = None,
) -> AuditResult:
    """Scan ``data`` (a path, DataFrame or ``datasets.Dataset``) for latent shortcuts and, with
    ``model`` (a registered name or a class or object with ``fit``, fitted on ``data``; a fitted
    scikit-learn estimator, its saved .joblib, or a fitted ``predict_proba`` function), measure
    its reliance on the ``measure_top`` strongest; write ``audit.json`` and ``audit.csv`` to
    ``out``. ``metadata`` names columns to test besides the text; ``features`` says which
    indicators are built (default: words and bigrams, negation, question, frequent words,
    surface properties, the packaged lexicons). ``text_col``, ``label_col``, ``text_pair_col``,
    ``encoding`` and ``on_empty`` read the files as every build reads them (default: columns
    ``text`` and ``label``, UTF-8, empty rows dropped); or ``inputs`` gives them all, as a
    :class:`~shortcutlab.data.options.ReadingOptions` (or the reading fields of an
    ``InputOptions``; the audit's folder is ``out``); giving both is refused.

    Word lists: ``FeatureConfig(lexicons={name: phrases})`` adds your lists to the packaged ones
    (a list named like a packaged one replaces it); ``packaged_lexicons=False`` leaves the
    packaged ones out. The command line is the same: ``--lexicon NAME=PATH`` adds,
    ``--no-packaged-lexicons`` leaves out.

    Repairs: ``fix=FixConfig(candidates=("frankly",))`` refits ``model`` under each repair for
    the candidates named (without names: every one it relies on), compares them with erm on the anti-test, a
    counterfactual test and the plain test, recommends one, and writes its repaired training
    set under ``out/fix/`` (the command line: ``--fix --candidate frankly``). ``progress``, if
    given, is called with one line per method fitted (the command line prints them on stderr).

    Triage: every candidate is sorted into likely shortcuts, label signal and those needing your
    judgement, with the evidence for each (docs/how-to/triage.md). ``label_names`` maps label
    values to names ({0: "neutral", 1: "amusement"}; labels written as words name themselves),
    which lets the audit tell a label's own words from a shortcut; ``judgements`` (a YAML file
    with ``shortcut:`` and ``signal:`` lists, or that mapping) puts candidates in your group;
    ``judge`` (an LLM client config such as ``{"name": "openai-chat", "base_url": URL, "model":
    NAME}``, or a client) is asked about the content words no other evidence settles.

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
    measure = _measure_config(model, params, measure_top, holdout, fix)
    reading = reading_options(
        "audit_dataset",
        inputs,
        ReadingOptions,
        text_col=text_col,
        label_col=label_col,
        text_pair_col=text_pair_col,
        encoding=encoding,
        on_empty=on_empty,
    )
    metadata = tuple(features.metadata)
    train, test_inputs, sources, training = _read_inputs(data, test, reading, metadata, labels)
    original = _original_test(test, reading, metadata, train) if fix is not None else None
    names = _user_columns(reading, sources["train"])
    result = run_audit(
        train,
        test_inputs,
        scan_config=scan_config,
        measure=measure,
        top=top,
        sources=sources,
        fix=fix,
        triage=TriageConfig(label_names=label_names, judgements=judgements, judge=judge),
        original_test=original,
        part_names={part: names[part] for part in (TEXT, TEXT_PAIR) if part in names},
        progress=progress,
    )
    if out is not None:
        # The user's whole table as pandas only where --fix writes repaired copies of it.
        frame = training.frame if fix is not None else None
        write_audit(result, out, overwrite=overwrite, training=frame, columns=names)
    return result


def _measure_config(
    model: Any,
    params: Mapping[str, Any] | None,
    top: int,
    holdout: float,
    fix: FixConfig | None,
) -> MeasureConfig | None:
    """The checked measurement settings (None without a model), and ``fix`` checked against them."""
    measure = None
    if model is not None:
        model, params = resolve_model(model, params)  # the model as held: a (name, params) pair
        measure = MeasureConfig(model=model, params=params, top=top, holdout=holdout)
        measure.check()
    if fix is not None:
        fix.check()
        if model is None:
            raise ConfigError(
                f"{knob('fix')} refits the measured model under each repair; give {knob('model')}."
            )
        check_fix_model(model)
    return measure


def _user_columns(reading: ReadingOptions, source: Mapping[str, Any]) -> dict[str, str]:
    """The user's name of the text, pair and label columns (as given, or as found by name)."""
    found = source.get("columns_found") or {}
    names = {TEXT: found.get(TEXT, reading.text_col), LABEL: reading.label_col}
    pair = found.get(TEXT_PAIR, reading.text_pair_col)
    if pair is not None:
        names[TEXT_PAIR] = pair
    return names


def _original_test(
    test: Any, reading: ReadingOptions, metadata: Sequence[str], train: Any
) -> Any | None:
    """A Shortcut Maze build's Ori-Test beside ``test`` (its test rows before the cue), read as
    the test is: ``--fix`` charges a repair's cost there too."""
    path = original_test_beside(test)
    if path is None:
        return None
    table = agree_labels({"test": reading.read(path, role="original test")})["test"]
    inputs, _ = load_inputs(
        table, role="original test", labels=train.labels, reading=reading, metadata=metadata
    )
    return inputs


def _read_inputs(
    data: Any,
    test: Any | None,
    reading: ReadingOptions,
    metadata: Sequence[str],
    labels: Sequence[Any] | None,
) -> tuple[Any, Any, dict[str, Any], Any]:
    """The audit's training and test inputs (their labels agreed across the files), each
    file's source record, and the loaded training table (its canonical columns and the user's
    others)."""
    check_distinct_columns(
        [
            ("text_col", reading.text_col),
            ("label_col", reading.label_col),
            ("text_pair_col", reading.text_pair_col),
        ]
        + [("metadata", name) for name in metadata],
        flags={"metadata": "--meta-col"},
    )
    tables = {"train": reading.read(data, role="train")}
    if test is not None:
        tables["test"] = reading.read(test, role="test")
    tables = agree_labels(tables)  # a test file's labels meet the training file's here
    train, loaded = load_inputs(
        tables["train"], role="train", given_labels=labels, reading=reading, metadata=metadata
    )
    test_inputs = None
    if test is not None:
        test_inputs, _ = load_inputs(
            tables["test"], role="test", labels=train.labels, reading=reading, metadata=metadata
        )
    sources = {role: table.source.to_json() for role, table in tables.items()}
    return train, test_inputs, sources, loaded
