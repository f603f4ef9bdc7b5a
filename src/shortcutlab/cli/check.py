"""``shortcutlab check SUITE.yaml --model M``: a gate for CI (exit 1 when a requirement fails).

A thin layer over :func:`shortcutlab.check.check`: parse the options, run the check, print the
pass/fail table and one summary line, write the JUnit XML; exit 0 when every requirement passes,
1 when any fails or is inconclusive, 2 for bad input (one ``Error:`` line, nothing written).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from shortcutlab.cli.app import app
from shortcutlab.cli.console import held_warnings, print_warnings, user_errors
from shortcutlab.cli.options import parse_key_values
from shortcutlab.cli.output import FormatOption, Section, check_format, messages, show


@app.command(
    name="check",
    short_help="Judge a model against a suite of requirements on their intervals; exit 1 when one fails (for CI).",
)
def check_command(
    suite: Annotated[
        Path,
        typer.Argument(
            help="The suite YAML: its data and requirements (docs/how-to/check-in-ci.md)."
        ),
    ],
    model: Annotated[
        str,
        typer.Option(
            help="Model name (see 'shortcutlab list'; transformer with -p path=FOLDER for a "
            "Hugging Face folder, llm-prompt with -p base_url=URL for an endpoint), or a saved "
            "scikit-learn pipeline (.joblib/.pkl); fitted on the suite's training data.",
            metavar="NAME|FILE",
        ),
    ] = "tfidf-logreg",
    param: Annotated[
        list[str] | None,
        typer.Option(
            "--param", "-p", help="Model parameter KEY=VALUE, e.g. -p C=1.", metavar="KEY=VALUE"
        ),
    ] = None,
    junit_xml: Annotated[
        Path | None,
        typer.Option(
            "--junit-xml",
            help="Also write JUnit XML here: one testcase per requirement (classname = kind, "
            "name = id), a failure with its figure and interval.",
            metavar="FILE",
        ),
    ] = None,
    fmt: FormatOption = "table",
) -> None:
    """Measure a model on what the suite names and judge each requirement on its 95 % interval:
    it passes when the interval's end on the unsafe side meets the threshold."""
    from shortcutlab.check import check
    from shortcutlab.check.junit import junit_xml as junit_text
    from shortcutlab.data.writing import check_no_file_above, write_text_atomically

    with user_errors():
        check_format(fmt)
        if junit_xml is not None:
            check_no_file_above(junit_xml)
        with held_warnings() as held:
            result = check(suite, model=model, params=parse_key_values(param, flag="--param"))
        if junit_xml is not None:
            write_text_atomically(junit_xml, junit_text(result), option="junit_xml")
    console = messages(fmt)
    table = result.table()
    if fmt == "table":  # rich reads "[term=frankly]" as markup: shown as written
        from rich.markup import escape

        table = table.apply(
            lambda column: column.map(lambda v: escape(v) if isinstance(v, str) else v)
        )
    show(fmt, [Section(table, title=f"{result.suite}: {result.model}")], tidy=result.to_pandas())
    print_warnings(console, held)
    console.print(result.summary(), markup=False)
    if junit_xml is not None:
        console.print(f"Wrote {junit_xml}", markup=False)
    raise typer.Exit(result.exit_code)
