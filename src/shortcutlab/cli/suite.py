"""``shortcutlab suite evaluate``: a model on every set of a Shortcut Suite folder."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from shortcutlab.cli.app import AlphabeticalGroup, app
from shortcutlab.cli.console import out_console, user_errors
from shortcutlab.cli.dataclass_options import dataclass_options
from shortcutlab.cli.options import Details, parse_client, parse_key_values, parse_list
from shortcutlab.cli.output import (
    FormatOption,
    Section,
    check_format,
    findings,
    messages,
    plain,
    show,
)
from shortcutlab.errors import ConfigError
from shortcutlab.fields import option_field

suite_app = typer.Typer(
    cls=AlphabeticalGroup,
    help="The Shortcut Suite's NLI sets: evaluate a model on them.",
    no_args_is_help=True,
)
app.add_typer(suite_app, name="suite")


@dataclass(frozen=True)
class ExplanationOptions:
    """How chain-of-thought explanations are scored (section 5.2): the ICS scorer, the LLM judge
    of wrong answers, and the sentence encoder of SFS."""

    nli_model: str | None = option_field(
        None,
        help="ICS scorer: a Hugging Face NLI checkpoint, 'judge', or a model name trained on "
        "--nli-train.",
    )
    nli_train: Path | None = option_field(
        None, help="NLI pairs for --nli-model NAME (default: --train)."
    )
    judge: str | None = option_field(
        None,
        help="LLM client for --nli-model judge and --error-types, as YAML (default: the "
        "llm-prompt client).",
    )
    error_types: bool = option_field(
        False, help="Label wrong CoT answers by error type with the LLM judge (5.2.4)."
    )
    sfs_encoder: str | None = option_field(
        None, help="Sentence encoder for SFS (default: bundled all-MiniLM-L6-v2)."
    )

    def scorers(
        self,
        params: dict[str, Any],
        cot: bool,
        train: Path | None,
        train_options: dict[str, Any],
        seed: int,
    ) -> tuple[Any, Any]:
        """The ICS scorer and the error judge (None where not asked for, or without CoT)."""
        from shortcutlab.families.suite.explanations import ErrorJudge, make_nli_scorer

        judge_client = parse_client(self.judge, flag="--judge") or (
            params.get("client") if isinstance(params.get("client"), dict) else None
        )
        nli_scorer = None
        if self.nli_model and cot:
            nli_scorer = make_nli_scorer(
                self.nli_model,
                train=self.nli_train or train,
                train_options=train_options,
                judge_client=judge_client,
                seed=seed,
            )
        if self.error_types and judge_client is None:
            raise ConfigError(
                "--error-types needs an LLM judge: pass --judge '{name: openai-chat, base_url: "
                "URL, model: NAME}'."
            )
        error_judge = (
            ErrorJudge(judge_client) if self.error_types and cot and judge_client else None
        )
        return nli_scorer, error_judge


@suite_app.command(name="evaluate")
@dataclass_options(explanations=ExplanationOptions)
def evaluate_command(
    suite_dir: Annotated[Path, typer.Argument(help="A folder written by build suite.")],
    out: Annotated[Path, typer.Option(help="Folder for results.json and tables.md.")],
    model: Annotated[str, typer.Option(help="Model name (see 'shortcutlab list').")] = "llm-prompt",
    param: Annotated[
        list[str] | None,
        typer.Option("--param", "-p", help="Model parameter KEY=VALUE, e.g. -p client={...}."),
    ] = None,
    train: Annotated[
        Path | None,
        typer.Option(
            help="NLI pairs to fit on (trainable models) or draw few-shot demonstrations from."
        ),
    ] = None,
    text_col: Annotated[
        str, typer.Option(help="First text column of --train / --nli-train.")
    ] = "text",
    text_pair_col: Annotated[
        str | None,
        typer.Option(help="Second text column of --train / --nli-train (e.g. hypothesis)."),
    ] = None,
    label_col: Annotated[
        str, typer.Option(help="Label column of --train / --nli-train.")
    ] = "label",
    strategy: Annotated[
        str | None,
        typer.Option(
            help="llm-prompt strategies, comma-separated: zero-shot,few-shot,zero-shot-cot,few-shot-cot."
        ),
    ] = None,
    sets: Annotated[str | None, typer.Option(help="Only these sets, comma-separated.")] = None,
    *,
    explanations: ExplanationOptions,
    seed: Annotated[int, typer.Option(help="Seed of the model and the few-shot draw.")] = 0,
    overwrite: Annotated[bool, typer.Option(help="Replace a non-empty --out.")] = False,
    fmt: FormatOption = "table",
    details: Details = False,
) -> None:
    """Fit once per strategy, predict every set, write accuracy, changes, label shares, positions and CoT explanation scores."""
    from shortcutlab.data.writing import check_output_dir
    from shortcutlab.families.suite.evaluate import evaluate_suite, save_suite_evaluation
    from shortcutlab.families.suite.explanations import sentence_embedder
    from shortcutlab.families.suite.tables import suite_markdown
    from shortcutlab.reports.findings import suite_findings

    with user_errors():
        check_format(fmt)
        check_output_dir(out, overwrite=overwrite)
        params = parse_key_values(param, flag="--param")
        strategies = parse_list(strategy)
        load = {"text_col": text_col, "text_pair_col": text_pair_col, "label_col": label_col}
        cot = any(s.endswith("cot") for s in strategies or [])
        nli_scorer, error_judge = explanations.scorers(params, cot, train, load, seed)
        try:
            evaluation = evaluate_suite(
                suite_dir,
                model=model,
                params=params,
                train=train,
                train_options=load,
                strategies=strategies,
                sets=parse_list(sets),
                nli_scorer=nli_scorer,
                embed=sentence_embedder(explanations.sfs_encoder) if cot else None,
                error_judge=error_judge,
                seed=seed,
            )
        finally:  # LLM judges hold a client (connections, the response cache file)
            for judge_object in (nli_scorer, error_judge):
                getattr(judge_object, "close", lambda: None)()
        save_suite_evaluation(evaluation, out, overwrite=overwrite)
    if fmt == "md":  # the tables.md it wrote, with its headings and notes
        plain(out_console, suite_markdown(evaluation.results, details=details))
    else:
        show(fmt, suite_sections(evaluation.results, details=details))
    say = messages(fmt)
    say.print(f"Wrote {out / 'results.json'} and {out / 'tables.md'}", markup=False)
    findings(fmt, suite_findings(evaluation.results))


def suite_sections(results: dict[str, Any], *, details: bool = False) -> list[Section]:
    """The evaluation's tables (the paper's Tables 2-4 layout, percentages) as sections; with
    ``details`` the line saying which test each change uses."""
    import pandas as pd

    from shortcutlab.families.suite import tables

    found = [
        ("Accuracy (%) per set (Table 2)", tables.accuracy_rows(results)),
        ("Change against standard", tables.change_rows(results)),
        ("Predicted-label distribution (% of rows)", tables.distribution_rows(results)),
        ("Accuracy per position (Table 3)", tables.position_rows(results)),
        ("Explanation quality (Table 4, %)", tables.explanation_rows(results)),
        ("Error types of wrong answers (counts)", tables.error_type_rows(results)),
    ]
    sections = []
    for title, rows in found:
        if rows is None:
            continue
        header, body = rows
        frame = pd.DataFrame([row[1:] for row in body], columns=header[1:])
        frame.index = pd.Index([row[0] for row in body], name=header[0])
        changes = details and title == "Change against standard"
        sections.append(Section(frame, title, [tables.CHANGE_NOTE] if changes else []))
    notes = list(results["notes"])
    if notes and sections:
        sections[-1] = Section(sections[-1].table, sections[-1].title, notes)
    return sections
