"""``shortcutlab explain``: SHAP and occlusion of a build's known cue (Shortcut Maze Table 4)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from shortcutlab.cli.app import app
from shortcutlab.cli.console import user_errors
from shortcutlab.cli.options import parse_key_values
from shortcutlab.cli.output import FormatOption, Section, check_format, messages, show


@app.command(
    short_help="Attribute a model's predictions to the cue (SHAP, occlusion) on rows that carry it."
)
def explain(
    source: Annotated[
        Path, typer.Argument(help="A benchmark folder (from build) or a run folder (from run).")
    ],
    model: Annotated[
        str,
        typer.Option(
            help="Benchmark folder: a model name (tfidf-logreg...); run folder: a model id."
        ),
    ],
    param: Annotated[
        list[str] | None,
        typer.Option("--param", "-p", help="Model parameter KEY=VALUE (benchmark folder)."),
    ] = None,
    rows: Annotated[
        int, typer.Option(help="Rows carrying the cue to explain (drawn with --seed).")
    ] = 100,
    seed: Annotated[
        int, typer.Option(help="Seed of the row draw and the fit (run: the cell's seed).")
    ] = 0,
    split: Annotated[str, typer.Option(help="Split whose rows are explained.")] = "test",
    mitigation: Annotated[
        str | None, typer.Option(help="Also fit this mitigation and compare it with erm.")
    ] = None,
    mitigation_param: Annotated[
        list[str] | None, typer.Option("--mitigation-param", help="Mitigation parameter KEY=VALUE.")
    ] = None,
    benchmark: Annotated[
        str | None, typer.Option(help="Run folder with several builds: the benchmark id.")
    ] = None,
    max_evals: Annotated[
        int | None,
        typer.Option(
            help="SHAP model calls per row (default: enough for every token's own value)."
        ),
    ] = None,
    pictures: Annotated[int, typer.Option(help="Rows per method drawn as PNG.")] = 10,
    out: Annotated[
        Path | None, typer.Option(help="Folder for results.json, rows.html and pictures/.")
    ] = None,
    overwrite: Annotated[bool, typer.Option(help="Replace a non-empty --out folder.")] = False,
    fmt: FormatOption = "table",
) -> None:
    """Fit the model on the benchmark's train split and attribute its predictions on rows that carry
    the cue: mean SHAP of cue vs other tokens per label, top token in the cue, occlusion's sign
    agreement with SHAP; with --mitigation, erm and the method on the same rows."""
    from shortcutlab.families.maze.explain import explain as run_explain

    with user_errors():
        check_format(fmt)
        result = run_explain(
            source,
            model=model,
            params=parse_key_values(param, flag="--param"),
            rows=rows,
            seed=seed,
            split=split,
            mitigation=mitigation,
            mitigation_params=parse_key_values(mitigation_param, flag="--mitigation-param"),
            benchmark=benchmark,
            max_evals=max_evals,
            pictures=pictures,
            out=out,
            overwrite=overwrite,
        )
    results = result.results
    say = messages(fmt)
    say.print(header(results), markup=False)
    show(fmt, token_sections(results))
    for line in summary_lines(results, result.seconds_per_row):
        say.print(line, markup=False)
    if result.out is not None:
        say.print(f"Wrote {result.out / 'results.json'}", markup=False)


def token_sections(results: dict[str, Any]) -> list[Section]:
    """Mean SHAP per label (Maze Table 4), then mean |SHAP|: in csv one table stacked on the other,
    a ``table`` column naming each."""
    from shortcutlab.families.maze.explain_tables import token_frame

    return [
        Section(token_frame(results, absolute=False), "Mean SHAP per label (Maze Table 4)"),
        Section(token_frame(results, absolute=True), "Mean |SHAP| per label"),
    ]


def header(results: dict[str, Any]) -> str:
    config = results["config"]
    return (
        f"{config['model']} (fit seed {config['fit_seed']}) on {results['source']['path']}: "
        f"{config['rows']} {config['split']} rows carrying the cue (of {config['rows_with_cue']}); "
        "SHAP values are probabilities"
    )


def summary_lines(results: dict[str, Any], seconds: dict[str, dict[str, float]]) -> list[str]:
    """The printed summary per method, and the change when a mitigation is compared."""
    from shortcutlab.families.maze.explain_tables import interval_text, number_text, share_text

    lines = []
    for method, summary in results["methods"].items():
        shap, top = summary["mean_abs_shap"], summary["top_token_in_cue"]
        sign, occlusion = summary["sign_agreement"], summary["occlusion"]
        lines += [
            f"{method}: cue tokens' mean |SHAP| {number_text(shap['cue'])} vs other tokens' "
            f"{number_text(shap['others'])}; per-row difference {interval_text(shap['cue_minus_others_per_row'])} "
            "(95 % interval over rows; one fit)",
            f"  top token in the cue on {share_text(top['share'])} of rows (a random token: "
            f"{share_text(top['chance'])})",
            f"  removing the cue changes the predicted label's probability by "
            f"{number_text(occlusion['predicted_label'])} on average; occlusion agrees in sign with "
            f"SHAP on {share_text(sign['share'])} of {sign['rows']} rows"
            + (
                f" ({sign['rows_without_change']} rows unchanged, left out)"
                if sign["rows_without_change"]
                else ""
            ),
        ]
        if summary["rationale"] is not None:
            rationale = summary["rationale"]
            lines.append(
                f"  rationale keeps {share_text(rationale['cue_recall'])} of the cue's characters; "
                f"{share_text(rationale['precision'])} of it is cue; touches the cue on "
                f"{share_text(rationale['rows_touching_cue'])} of rows"
            )
        if method in seconds:
            lines.append(
                f"  seconds per row: SHAP {seconds[method]['shap']:.3f}, occlusion "
                f"{seconds[method]['occlusion']:.4f}"
            )
    if "change" in results:
        change = results["change"]
        method = list(results["methods"])[1]
        lines += [
            f"{method} minus erm on the same rows: cue tokens' mean |SHAP| "
            f"{interval_text(change['cue_abs_shap'])}; occlusion total variation "
            f"{interval_text(change['occlusion_total_variation'])} (95 % intervals over rows; one fit "
            "each, refitting variance not included); top token in the cue "
            f"{100 * change['top_token_in_cue']:+.0f} points",
        ]
    return lines
