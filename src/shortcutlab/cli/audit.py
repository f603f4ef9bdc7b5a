"""``shortcutlab audit``: the shortcuts a data set already has, ranked, and a model's reliance on them.

Its options come in groups besides the data's columns and the output: what the scan looks at
(:class:`ScanOptions`, which makes the API's :class:`FeatureConfig`) and the model measured
(:class:`MeasureOptions`); the command calls :func:`audit_dataset` as a script would.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from shortcutlab.cli.app import app
from shortcutlab.cli.audit_suite import SaveSuite, check_save_suite, suite_data, write_suite
from shortcutlab.cli.console import err_console, out_console, user_errors
from shortcutlab.cli.dataclass_options import dataclass_options
from shortcutlab.cli.options import (
    Details,
    parse_client,
    parse_key_values,
    parse_list,
    parse_named_paths,
)
from shortcutlab.cli.output import check_format, findings, messages
from shortcutlab.data.options import ReadingOptions
from shortcutlab.fields import option_field
from shortcutlab.params import quoted

if TYPE_CHECKING:
    from shortcutlab.families.audit.repair.config import FixConfig
    from shortcutlab.families.audit.report.audit_record import AuditResult
    from shortcutlab.families.audit.scan.features import FeatureConfig


@dataclass(frozen=True)
class ScanOptions:
    """What the scan looks at: words and n-grams, MPS annotators, surface properties, word lists
    and metadata columns."""

    ngram_max: int = option_field(2, help="Longest n-gram scanned (1: words only).")
    min_support: int = option_field(
        20, help="Training rows a token, n-gram or value needs to be tested."
    )
    attribute: list[str] | None = option_field(
        None,
        help="MPS annotators to scan (repeatable; default negation, question, frequent-words).",
    )
    attribute_option: list[str] | None = option_field(
        None, help="NAME.KEY=VALUE option of an annotator, e.g. frequent-words.k=10."
    )
    no_attributes: bool = option_field(False, "--no-attributes", help="Skip the MPS annotators.")
    lexicon: list[str] | None = option_field(
        None,
        help="NAME=PATH: your word list (one word or phrase per line), tested as a whole beside "
        "the packaged lists (repeatable; a list named like a packaged one replaces it).",
    )
    no_packaged_lexicons: bool = option_field(
        False,
        "--no-packaged-lexicons",
        help="Leave the packaged word lists out (yours from --lexicon are still tested).",
    )
    no_surface: bool = option_field(
        False, "--no-surface", help="Skip surface properties (length, casing...)."
    )
    meta_col: list[str] | None = option_field(
        None, help="A metadata column to test for association with the label (repeatable)."
    )

    def feature_config(self) -> FeatureConfig:
        """The API's :class:`FeatureConfig` these options describe."""
        from shortcutlab.families.audit.scan.features import FeatureConfig
        from shortcutlab.families.audit.scan.lexicons import read_lexicon

        attribute_options = self._attribute_options()
        named = parse_named_paths(self.lexicon, flag="--lexicon")
        return FeatureConfig(
            ngram_max=self.ngram_max,
            min_support=self.min_support,
            attributes=self._attributes(FeatureConfig().attributes),
            attribute_options=attribute_options,
            surface=not self.no_surface,
            lexicons={name: read_lexicon(name, path) for name, path in named.items()},
            packaged_lexicons=not self.no_packaged_lexicons,
            metadata=tuple(self.meta_col or ()),
        )

    def _attributes(self, default: tuple[str, ...]) -> tuple[str, ...]:
        if self.no_attributes:
            return ()
        return default if self.attribute is None else tuple(self.attribute)

    def _attribute_options(self) -> dict[str, dict[str, Any]]:
        """``--attribute-option NAME.KEY=VALUE`` as {annotator: {key: value}}."""
        from shortcutlab.errors import ConfigError

        options: dict[str, dict[str, Any]] = {}
        for pair in self.attribute_option or []:
            # Split off NAME before parsing KEY=VALUE: the parser turns dashes into underscores,
            # and annotator names keep theirs ("frequent-words", "sentence-concept").
            name, dot, key_value = pair.partition(".")
            name = name.strip()
            if not dot or not name or "=" in name or not key_value.partition("=")[0].strip():
                raise ConfigError(
                    "--attribute-option takes NAME.KEY=VALUE, e.g. frequent-words.k=10. "
                    f"Got {quoted(pair)}."
                )
            parsed = parse_key_values([key_value], flag="--attribute-option")
            options.setdefault(name, {}).update(parsed)
        return options


@dataclass(frozen=True)
class MeasureOptions:
    """The model whose reliance on the top candidates is measured, and on which rows."""

    model: str | None = option_field(
        None,
        help="Measure this model: a registered name (fitted on DATA) or a saved scikit-learn "
        "pipeline (.joblib/.pkl).",
    )
    param: list[str] | None = option_field(None, "--param", "-p", help="Model parameter KEY=VALUE.")
    measure_top: int = option_field(10, help="Top candidates the model is measured on.")
    holdout: float = option_field(
        0.2, help="Without --test: share of DATA held out to measure the model."
    )

    def arguments(self) -> dict[str, Any]:
        """The keyword arguments of :func:`audit_dataset` these options set."""
        params = parse_key_values(self.param, flag="--param")
        return dict(
            model=self.model, params=params, measure_top=self.measure_top, holdout=self.holdout
        )


@dataclass(frozen=True)
class FixOptions:
    """Repairs of the candidates the model relies on (or those named), each against erm."""

    fix: bool = option_field(
        False,
        "--fix",
        help="Refit --model under each repair for every candidate it relies on (or only "
        "those named with --candidate), compare with erm, recommend one, write its repaired training set to --out.",
    )
    methods: str | None = option_field(
        None, help="With --fix: the methods tried, comma-separated (default: all that apply)."
    )
    candidate: list[str] | None = option_field(
        None,
        help="With --fix: a candidate to repair as the audit names it: a word or n-gram "
        "(frankly), a pair part's (hypothesis: no) or an attribute value "
        "(negation = with_negation); repeatable.",
    )

    def config(self) -> FixConfig | None:
        """The API's :class:`FixConfig` (None without --fix)."""
        from shortcutlab.errors import ConfigError
        from shortcutlab.families.audit.repair.config import FixConfig

        if not self.fix:
            if self.methods is not None or self.candidate:
                raise ConfigError("--methods and --candidate choose repairs; add --fix.")
            return None
        methods = parse_list(self.methods)
        return FixConfig(
            candidates=tuple(self.candidate or ()),
            methods=None if methods is None else tuple(methods),
        )


@dataclass(frozen=True)
class TriageOptions:
    """What sorts the candidates into likely shortcuts, label signal and those needing judgement."""

    label_name: list[str] | None = option_field(
        None,
        help="VALUE=NAME: the name of a label value (repeatable), e.g. 1=amusement; tells a "
        "label's own words from shortcuts (labels written as words name themselves).",
    )
    judgements: Path | None = option_field(
        None,
        help="YAML file of your verdicts (shortcut: [...], signal: [...]; annotate's "
        "shortcut-or-signal task writes one): a judged candidate's group is yours.",
    )
    judge: str | None = option_field(
        None,
        help="An LLM client as YAML, e.g. '{name: openai-chat, base_url: URL, model: NAME}': "
        "asked whether each content word the other evidence leaves open makes a text its "
        "label's (needs label names).",
    )

    def arguments(self) -> dict[str, Any]:
        """The keyword arguments of :func:`audit_dataset` these options set."""
        from shortcutlab.errors import ConfigError

        names: dict[str, str] = {}
        for pair in self.label_name or []:
            value, equals, name = pair.partition("=")
            if not equals or not value.strip() or not name.strip():
                raise ConfigError(
                    f"--label-name takes VALUE=NAME, e.g. 1=amusement. Got {quoted(pair)}."
                )
            names[value.strip()] = name.strip()
        return {
            "label_names": names or None,
            "judgements": self.judgements,
            "judge": parse_client(self.judge, flag="--judge"),
        }


@app.command(
    short_help="Scan your data for latent shortcuts, rank them, and measure a model's reliance on the top ones."
)
@dataclass_options(
    reading=ReadingOptions,
    scan=ScanOptions,
    measure=MeasureOptions,
    repair=FixOptions,
    triage=TriageOptions,
)
def audit(
    data: Annotated[Path, typer.Argument(help="The labelled training data to audit.")],
    test: Annotated[
        Path | None,
        typer.Option(help="Test data: drift and leakage against it, and the model measured on it."),
    ] = None,
    pair_col: Annotated[
        str | None, typer.Option("--pair-col", help="Same as --text-pair-col.", hidden=True)
    ] = None,
    labels: Annotated[
        str | None, typer.Option(help="Label order, comma-separated (default: sorted).")
    ] = None,
    *,
    reading: ReadingOptions,
    scan: ScanOptions,
    correction: Annotated[
        str, typer.Option(help="False-discovery control over every test: bh or holm.")
    ] = "bh",
    alpha: Annotated[float, typer.Option(help="Level of the corrected p-values.")] = 0.05,
    top: Annotated[
        int, typer.Option(help="Candidates shown (and kept with examples in audit.json).")
    ] = 20,
    measure: MeasureOptions,
    repair: FixOptions,
    triage: TriageOptions,
    seed: Annotated[
        int, typer.Option(help="Seed of every draw (held-out rows, bootstrap, sets).")
    ] = 0,
    out: Annotated[Path | None, typer.Option(help="Folder for audit.json and audit.csv.")] = None,
    overwrite: Annotated[bool, typer.Option(help="Replace a non-empty --out folder.")] = False,
    html: Annotated[
        bool, typer.Option("--html", help="Also write --out/report.html (needs --out).")
    ] = False,
    fmt: Annotated[
        str,
        typer.Option(
            "--format",
            help="table (the ranked candidates, the default), md or latex (the same table as "
            "text), csv (the tidy rows) or json (the whole audit record); messages go to stderr.",
        ),
    ] = "table",
    details: Details = False,
    save_suite: SaveSuite = None,
) -> None:
    """Scan DATA for latent shortcuts (tokens, n-grams, attributes, surface properties, lexicons,
    metadata, partial inputs, leakage, drift), test each against the label prior with
    false-discovery control, rank them, and with --model measure how much the model relies on the
    top ones (aligned vs conflicting rows, counterfactual removal, redistribution anti-tests)."""
    from shortcutlab.families.audit.api import audit_dataset

    with user_errors():
        check_format(fmt)
        _check_out(html, repair.fix, out)
        if save_suite is not None:
            check_save_suite(save_suite, measure.model, test)
        result = audit_dataset(
            data,
            test,
            **(reading.reading() | {"text_pair_col": reading.text_pair_col or pair_col}),
            labels=parse_list(labels),
            features=scan.feature_config(),
            correction=correction,
            alpha=alpha,
            **measure.arguments(),
            seed=seed,
            top=top,
            out=out,
            overwrite=overwrite,
            fix=repair.config(),
            **triage.arguments(),
            # Each repair refits the model (a torch head takes a minute on 7k rows): say which.
            progress=lambda text: err_console.print(text, markup=False, style="dim"),
        )
        report = _write_html(out) if html and out is not None else None
        if save_suite is not None:
            data_entry = suite_data(data, test, reading, parse_list(labels))
            write_suite(save_suite, result, data_entry, seed=seed, top=measure.measure_top)
    _print_result(result, fmt, top=top, out=out, details=details)
    if report is not None:
        messages(fmt).print(f"Wrote {report}", markup=False)
    if save_suite is not None:
        messages(fmt).print(f"Wrote the suite {save_suite}", markup=False)


def _print_tables(record: dict[str, Any], fmt: str, *, top: int, details: bool) -> None:
    """A person reads the three lists and the recommended repairs first; the wide candidate and
    repair tables follow with --details, or always in md and latex (formats asked for a table)."""
    from shortcutlab.cli.audit_fix import print_fix
    from shortcutlab.cli.audit_table import audit_notes, print_audit
    from shortcutlab.cli.audit_triage import print_recommendations, print_triage

    tables = details or fmt != "table"
    if fmt == "table":
        print_triage(out_console, record)
        if record.get("fix") is not None:
            print_recommendations(out_console, record)
    if tables:
        print_audit(out_console, record, top=top, fmt=fmt, details=details)
        if record.get("fix") is not None:
            print_fix(out_console, record["fix"], fmt=fmt)
        return
    for line in audit_notes(record, details=False):  # partial inputs and leakage, a line each
        out_console.print(line, markup=False, soft_wrap=True)
    out_console.print(
        "The ranked candidates and the repair tables: --details (or audit.csv, --html).",
        markup=False,
        style="dim",
    )


def _check_out(html: bool, fix: bool, out: Path | None) -> None:
    """--html and --fix write into the --out folder: refuse them without one, before any work
    (the repairs refit the model for minutes, and their tables and sets belong in a folder)."""
    if out is None and (html or fix):
        from shortcutlab.errors import ConfigError

        what = "report.html" if html else "the repair tables and repaired training sets"
        flag = "--html" if html else "--fix"
        raise ConfigError(f"{flag} writes {what} into the audit's folder; give --out DIR as well.")


def _write_html(out: Path) -> Path:
    """The HTML report of the audit folder just written (as 'shortcutlab report OUT' makes it)."""
    from shortcutlab.webreport.build import write_html_report

    return write_html_report(out)


def _print_result(
    result: AuditResult, fmt: str, *, top: int, out: Path | None, details: bool
) -> None:
    """The ranked table (table, md, latex), the tidy rows (csv) or the record (json) on stdout,
    then the findings in plain words (on stderr beside csv and json)."""
    from shortcutlab.reports.findings import audit_findings

    if fmt == "csv":
        from shortcutlab.data.csv_text import csv_text
        from shortcutlab.families.audit.report.output import audit_csv_frame

        out_console.file.write(csv_text(audit_csv_frame(result), for_people=True))
    elif fmt == "json":
        import json

        out_console.file.write(
            json.dumps(result.record, indent=2, ensure_ascii=False, default=str) + "\n"
        )
    else:
        _print_tables(result.record, fmt, top=top, details=details)
    if out is not None and fmt not in ("csv", "json"):
        messages(fmt).print(f"Wrote {out / 'audit.json'} and {out / 'audit.csv'}", markup=False)
        if result.repairs:
            messages(fmt).print(
                f"Wrote the repaired training sets under {out / 'fix'}", markup=False
            )
    findings(fmt, audit_findings(result.record))
