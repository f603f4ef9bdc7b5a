"""``shortcutlab audit``: the shortcuts a data set already has, ranked, and a model's reliance on them."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from shortcutlab.cli.app import app, out_console, user_errors
from shortcutlab.cli.options import parse_key_values, parse_list, parse_named_paths

FORMATS = ("text", "csv", "json")


@app.command()
def audit(
    data: Annotated[Path, typer.Argument(help="The labelled training data to audit.")],
    test: Annotated[
        Path | None,
        typer.Option(help="Test data: drift and leakage against it, and the model measured on it."),
    ] = None,
    text_col: Annotated[str, typer.Option(help="Text column (x1 of a pair).")] = "text",
    label_col: Annotated[str, typer.Option(help="Label column.")] = "label",
    text_pair_col: Annotated[
        str | None, typer.Option(help="Second text of a pair (hypothesis, question2...).")
    ] = None,
    pair_col: Annotated[
        str | None, typer.Option("--pair-col", help="Same as --text-pair-col.", hidden=True)
    ] = None,
    meta_col: Annotated[
        list[str] | None,
        typer.Option(help="A metadata column to test for association with the label (repeatable)."),
    ] = None,
    labels: Annotated[
        str | None, typer.Option(help="Label order, comma-separated (default: sorted).")
    ] = None,
    ngram_max: Annotated[int, typer.Option(help="Longest n-gram scanned (1: words only).")] = 2,
    min_support: Annotated[
        int, typer.Option(help="Training rows a token, n-gram or value needs to be tested.")
    ] = 20,
    attribute: Annotated[
        list[str] | None,
        typer.Option(
            help="MPS annotators to scan (repeatable; default negation, question, frequent-words)."
        ),
    ] = None,
    attribute_option: Annotated[
        list[str] | None,
        typer.Option(
            "--attribute-option",
            help="NAME.KEY=VALUE option of an annotator, e.g. frequent-words.k=10.",
        ),
    ] = None,
    lexicon: Annotated[
        list[str] | None,
        typer.Option(
            help="NAME=PATH: a word list (one word or phrase per line) to test as a whole."
        ),
    ] = None,
    no_attributes: Annotated[
        bool, typer.Option("--no-attributes", help="Skip the MPS annotators.")
    ] = False,
    no_lexicons: Annotated[
        bool, typer.Option("--no-lexicons", help="Skip the word lists (packaged and --lexicon).")
    ] = False,
    no_surface: Annotated[
        bool, typer.Option("--no-surface", help="Skip surface properties (length, casing...).")
    ] = False,
    correction: Annotated[
        str, typer.Option(help="False-discovery control over every test: bh or holm.")
    ] = "bh",
    alpha: Annotated[float, typer.Option(help="Level of the corrected p-values.")] = 0.05,
    top: Annotated[
        int, typer.Option(help="Candidates shown (and kept with examples in audit.json).")
    ] = 20,
    model: Annotated[
        str | None,
        typer.Option(
            help="Measure this model: a registered name (fitted on DATA) or a saved scikit-learn pipeline (.joblib/.pkl)."
        ),
    ] = None,
    param: Annotated[
        list[str] | None, typer.Option("--param", "-p", help="Model parameter KEY=VALUE.")
    ] = None,
    measure_top: Annotated[int, typer.Option(help="Top candidates the model is measured on.")] = 10,
    holdout: Annotated[
        float, typer.Option(help="Without --test: share of DATA held out to measure the model.")
    ] = 0.2,
    seed: Annotated[
        int, typer.Option(help="Seed of every draw (held-out rows, bootstrap, sets).")
    ] = 0,
    out: Annotated[Path | None, typer.Option(help="Folder for audit.json and audit.csv.")] = None,
    overwrite: Annotated[bool, typer.Option(help="Replace a non-empty --out folder.")] = False,
    fmt: Annotated[
        str, typer.Option("--format", help="text (ranked table), csv or json (the tidy rows).")
    ] = "text",
) -> None:
    """Scan DATA for latent shortcuts (tokens, n-grams, attributes, surface properties, lexicons,
    metadata, partial inputs, leakage, drift), test each against the label prior with
    false-discovery control, rank them, and with --model measure how much the model relies on the
    top ones (aligned vs conflicting rows, counterfactual removal, redistribution anti-tests)."""
    from shortcutlab.families.audit.api import audit_dataset
    from shortcutlab.families.audit.output import audit_csv_frame
    from shortcutlab.registry import check_choice

    with user_errors():
        check_choice("format", fmt, FORMATS)
        result = audit_dataset(
            data,
            test,
            text_col=text_col,
            label_col=label_col,
            text_pair_col=text_pair_col or pair_col,
            labels=parse_list(labels),
            features=_feature_config(
                ngram_max=ngram_max,
                min_support=min_support,
                attributes=() if no_attributes else attribute,
                attribute_options=attribute_option,
                lexicons=lexicon,
                no_lexicons=no_lexicons,
                surface=not no_surface,
                metadata=meta_col,
            ),
            correction=correction,
            alpha=alpha,
            model=model,
            params=parse_key_values(param, flag="--param"),
            measure_top=measure_top,
            holdout=holdout,
            seed=seed,
            top=top,
            out=out,
            overwrite=overwrite,
        )
    if fmt == "csv":
        from shortcutlab.data.csv_text import csv_text

        out_console.file.write(csv_text(audit_csv_frame(result)))
        return
    if fmt == "json":
        import json

        out_console.file.write(
            json.dumps(result.record, indent=2, ensure_ascii=False, default=str) + "\n"
        )
        return
    from shortcutlab.cli.audit_table import print_audit

    print_audit(out_console, result.record, top=top)
    if out is not None:
        out_console.print(f"Wrote {out / 'audit.json'} and {out / 'audit.csv'}", markup=False)


def _feature_config(
    *,
    ngram_max: int,
    min_support: int,
    attributes: list[str] | tuple[()] | None,
    attribute_options: list[str] | None,
    lexicons: list[str] | None,
    no_lexicons: bool,
    surface: bool,
    metadata: list[str] | None,
) -> Any:
    from shortcutlab.errors import ConfigError
    from shortcutlab.families.audit.features import FeatureConfig

    options: dict[str, dict[str, Any]] = {}
    for pair in attribute_options or []:
        # Split off NAME before parsing KEY=VALUE: the parser turns dashes into underscores, and
        # annotator names keep theirs ("frequent-words", "sentence-concept").
        name, dot, key_value = pair.partition(".")
        name = name.strip()
        if not dot or not name or "=" in name or not key_value.partition("=")[0].strip():
            raise ConfigError(
                f"--attribute-option takes NAME.KEY=VALUE, e.g. frequent-words.k=10. Got {pair!r}."
            )
        parsed = parse_key_values([key_value], flag="--attribute-option")
        options.setdefault(name, {}).update(parsed)
    defaults = FeatureConfig()
    return FeatureConfig(
        ngram_max=ngram_max,
        min_support=min_support,
        attributes=defaults.attributes if attributes is None else tuple(attributes),
        attribute_options=options,
        surface=surface,
        lexicons={} if no_lexicons else _lexicons(lexicons),
        metadata=tuple(metadata or ()),
    )


def _lexicons(pairs: list[str] | None) -> dict[str, list[str]] | None:
    """The user's word lists (one phrase per line), added to the packaged ones."""
    from shortcutlab.families.audit.lexicons import packaged_lexicons, read_lexicon

    if not pairs:
        return None
    named = parse_named_paths(pairs, flag="--lexicon")
    return {
        **packaged_lexicons(),
        **{name: read_lexicon(name, path) for name, path in named.items()},
    }
