"""``shortcutlab cat``: the Counterfactual Attentiveness Test of a pair model (paper 003)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from shortcutlab.cli.app import app
from shortcutlab.cli.console import user_errors
from shortcutlab.cli.options import Details, parse_key_values, parse_list
from shortcutlab.cli.output import FormatOption, Section, check_format, findings, messages, show


@app.command(
    short_help="Measure how attentive a pair model is (CAT) and compare partial-input baselines."
)
def cat(
    train: Annotated[
        Path, typer.Option(help="Training table (pairs and labels), or all data with --split-by.")
    ],
    out: Annotated[Path, typer.Option(help="Folder for results.json (and check.csv).")],
    test: Annotated[Path | None, typer.Option(help="Test table of the same task.")] = None,
    split_by: Annotated[
        str | None, typer.Option(help="Instead of --test: split --train by this column.")
    ] = None,
    test_size: Annotated[float, typer.Option(help="--split-by's test share of rows.")] = 0.3,
    text_col: Annotated[str, typer.Option(help="Column of x1 (premise, question1...).")] = "text",
    text_pair_col: Annotated[
        str | None, typer.Option(help="Column of x2 (hypothesis, question2, passage...).")
    ] = None,
    label_col: Annotated[str, typer.Option(help="Label column.")] = "label",
    model: Annotated[str, typer.Option(help="A model that reads pairs.")] = "tfidf-logreg",
    param: Annotated[
        list[str] | None, typer.Option("--param", "-p", help="Model parameter KEY=VALUE.")
    ] = None,
    k: Annotated[int, typer.Option(help="Counterfactual sets (paper: 5).")] = 5,
    default_label: Annotated[
        str | None,
        typer.Option(
            help="Label of an unrelated pair: a label value or a preset (nli3, nli2, paraphrase, "
            "qa); inferred from the labels when unambiguous."
        ),
    ] = None,
    replace: Annotated[
        str, typer.Option(help="The part swapped with another row's: text (x1) or text_pair.")
    ] = "text",
    augment: Annotated[
        bool, typer.Option(help="CAT augmentation of the training data before fitting (§6).")
    ] = False,
    seed: Annotated[int, typer.Option(help="Seed of the counterfactuals and the fit.")] = 0,
    labels: Annotated[
        str | None, typer.Option(help="Label order, comma-separated (default: sorted).")
    ] = None,
    export_check: Annotated[
        int | None,
        typer.Option(help="Write N counterfactual pairs to check.csv for a person to judge."),
    ] = None,
    overwrite: Annotated[bool, typer.Option(help="Replace a non-empty --out folder.")] = False,
    fmt: FormatOption = "table",
    details: Details = False,
) -> None:
    """Fit a pair model, measure how often its prediction changes when x1 comes from another row
    (attentiveness, mean ± std over k sets), and compare partial-input and majority baselines."""
    from shortcutlab.data.writing import check_output_dir
    from shortcutlab.errors import ConfigError
    from shortcutlab.families.cat.run import CatConfig, run_cat, save_cat

    with user_errors():
        check_format(fmt)
        if export_check is not None and export_check < 1:
            raise ConfigError(f"--export-check expects a whole number >= 1. Got {export_check}.")
        check_output_dir(out, overwrite=overwrite)
        config = CatConfig(
            model=model,
            params=parse_key_values(param, flag="--param"),
            seed=seed,
            k=k,
            default_label=default_label,
            replace=replace,
            augment=augment,
            labels=parse_list(labels),
        )
        config.check()
        columns = dict(text_col=text_col, text_pair_col=text_pair_col, label_col=label_col)
        loaded, sources = _train_and_test(train, test, split_by, test_size, columns)
        outcome = run_cat(loaded["train"], loaded["test"], config)
        written = save_cat(
            outcome, out, overwrite=overwrite, export_check=export_check, seed=seed, sources=sources
        )
    _print_outcome(outcome.results, written, fmt, details)


def _print_outcome(results: dict[str, Any], written: Path, fmt: str, details: bool) -> None:
    """The run's table in ``fmt`` (its footnotes with ``details``), the files written, then
    the findings in plain words."""
    from shortcutlab.cli import render
    from shortcutlab.families.cat.export import summary_frame
    from shortcutlab.reports.findings import cat_findings

    say = messages(fmt)
    say.print(summary_header(results), markup=False)
    table = summary_frame(results)
    notes = summary_notes(results) if details else ()
    show(fmt, [Section(table, notes=notes, digits=1)], tidy=table.reset_index())
    files = render.files_written(written, ("results.json",))
    say.print(f"Wrote {', '.join(map(str, files))}", markup=False)
    findings(fmt, cat_findings(results))


def _train_and_test(
    train: Path,
    test: Path | None,
    split_by: str | None,
    test_size: float,
    columns: dict[str, Any],
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The train and test tables (read from --train and --test, or --train split by group) and
    the record of where they came from."""
    from shortcutlab.data.group_split import check_fraction, split_table_by_group
    from shortcutlab.data.label_agreement import agree_labels
    from shortcutlab.data.loading import load_table
    from shortcutlab.errors import ConfigError

    if (test is None) == (split_by is None):
        raise ConfigError(
            "cat needs a test table: pass --test FILE, or --split-by COLUMN to split --train "
            "(not both)."
        )
    if split_by is None:
        loaded = agree_labels(
            {r: load_table(p, role=r, **columns) for p, r in ((train, "train"), (test, "test"))}
        )
        return loaded, {role: table.source.to_json() for role, table in loaded.items()}
    check_fraction(test_size, "--test-size")
    data = load_table(train, role="data", **columns)
    # Seed 0 whatever --seed is: the seeds of a study refit on one split (as a grid's do).
    sides, record = split_table_by_group(data, split_by, columns=columns, test_size=test_size)
    return sides, {"data": data.source.to_json(), "split": record}


def summary_header(results: dict[str, Any]) -> str:
    """The line above a CAT run's table: the model, the default label and the test rows."""
    config = results["config"]
    return (
        f"Model {config['model']}{' + CAT augmentation' if config['augment'] else ''}; "
        f"default label {config['default_label']}; {results['data']['test_rows']} test rows"
    )


def summary_notes(results: dict[str, Any]) -> list[str]:
    """What the table's figures are: percentages, intervals, the k sets, the McNemar test."""
    from shortcutlab.families.cat.export import percent_text

    cat_ = results["attentiveness"]
    base = results["baselines"]
    test = base["partial_vs_majority"]
    naive = base["naive_partial_input"]
    return [
        "Attentiveness: share of kept rows (prediction not "
        f"{results['config']['default_label']}) whose prediction changes when x1 comes from "
        f"another row, mean ± sd over k={cat_['k']} counterfactual sets (— : one set, no spread). "
        f"Percentages. Intervals: {results['accuracy']['interval_note']}.",
        f"p vs majority: exact McNemar, partial-input model vs majority baseline (b={test['b']}, "
        f"c={test['c']}). The naive partial input predicts the same label as the full input on "
        f"{percent_text(naive['agreement_with_full_input'])} % of rows.",
    ]
