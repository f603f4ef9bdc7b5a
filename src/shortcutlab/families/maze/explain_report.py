"""Report sections of an ``explain`` folder (results.json): the Shortcut Maze Table 4 layout per
method (mean SHAP and mean |SHAP| per label of the cue's tokens and the others), the checks the
CLI prints (top token in the cue, occlusion and its sign agreement, the rationale's overlap), the
change under a mitigation, and every explained row's tokens shaded by their SHAP value for the
predicted label, the cue underlined."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from shortcutlab.data.reading import results_with
from shortcutlab.explain.tokens import tokens_in_spans
from shortcutlab.families.maze.explain_tables import (
    interval_text,
    number_text,
    share_text,
    token_frame,
)
from shortcutlab.reports.html.collect import ReportInput, missing
from shortcutlab.reports.html.document import (
    Block,
    Facts,
    Section,
    ShadedRow,
    ShadedRows,
    ShadedToken,
    Table,
)

EXPLAIN_KEYS = ("source", "config", "labels", "methods", "rows")
ROWS_PER_METHOD = 200  # a page budget: explain's default draws 100 rows


def recognises(path: Path) -> bool:
    return results_with(path, EXPLAIN_KEYS) is not None


def sections(found: ReportInput) -> list[Section]:
    results = results_with(found.path, EXPLAIN_KEYS)
    if results is None:
        notice = missing(f"'{found.path}' no longer holds an explain results.json.")
        return [Section(id="attributions", title="Attributions", blocks=[notice])]
    config = results["config"]
    blocks: list[Block] = [
        Facts(
            title="Explained rows",
            items=[
                ("model", f"{config['model']} (fit seed {config['fit_seed']})"),
                ("source", str(results["source"].get("path", "—"))),
                (
                    "rows",
                    f"{config['rows']} {config['split']} rows carrying the cue "
                    f"(of {config['rows_with_cue']}), drawn with seed {config['seed']}",
                ),
                ("mitigation", str(config["mitigation"] or "— (erm only)")),
                ("SHAP", f"values are probabilities; masked with {config['mask_token']}"),
            ],
        ),
        Table(
            name="attributions-mean-shap",
            title="Mean SHAP per label (Maze Table 4)",
            frame=token_frame(results, absolute=False),
        ),
        Table(
            name="attributions-mean-abs-shap",
            title="Mean |SHAP| per label",
            frame=token_frame(results, absolute=True),
        ),
        Table(
            name="attributions-checks",
            title="Where the attribution sits, per method",
            frame=_checks(results),
            notes=[
                "Per-row difference: cue tokens' mean |SHAP| minus the other tokens', mean with "
                "its 95 % interval over rows; one fit, refitting variance not included.",
                "Occlusion: change of the predicted label's probability when the cue is removed.",
            ],
        ),
    ]
    if "change" in results:
        blocks.append(_change(results))
    for method, rows in results["rows"].items():
        blocks.append(_shaded(method, rows, results["labels"]))
    return [
        Section(
            id="attributions",
            title=f"Attributions: {config['model']}",
            blocks=blocks,
            intro="Where the model's SHAP attributions sit relative to the cue the build "
            "inserted (Shortcut Maze Table 4, figure 4); the same figures as 'shortcutlab explain'.",
        )
    ]


def _checks(results: dict[str, Any]) -> pd.DataFrame:
    rows = {}
    for method, summary in results["methods"].items():
        shap, top = summary["mean_abs_shap"], summary["top_token_in_cue"]
        sign, rationale = summary["sign_agreement"], summary["rationale"]
        rows[method] = {
            "cue mean |SHAP|": number_text(shap["cue"]),
            "others mean |SHAP|": number_text(shap["others"]),
            "per-row difference": interval_text(shap["cue_minus_others_per_row"]),
            "top token in the cue": share_text(top["share"]),
            "a random token": share_text(top["chance"]),
            "occlusion": number_text(summary["occlusion"]["predicted_label"]),
            "sign agreement": f"{share_text(sign['share'])} of {sign['rows']} rows",
            "rationale cue recall": share_text(rationale["cue_recall"]) if rationale else "—",
        }
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("method")


def _change(results: dict[str, Any]) -> Table:
    change = results["change"]
    method = list(results["methods"])[1]
    frame = pd.DataFrame(
        {
            "cue mean |SHAP|": [interval_text(change["cue_abs_shap"])],
            "occlusion total variation": [interval_text(change["occlusion_total_variation"])],
            "top token in the cue (points)": [f"{100 * change['top_token_in_cue']:+.0f}"],
        },
        index=pd.Index([f"{method} − erm"], name="change"),
    )
    return Table(
        name="attributions-change",
        title=f"{method} minus erm on the same rows",
        frame=frame,
        notes=["95 % intervals over rows; one fit each, refitting variance not included."],
    )


def _shaded(method: str, rows: list[dict[str, Any]], labels: list[str]) -> Block:
    if rows and "token_offsets" not in rows[0]:
        return missing(
            f"{method}: this explain output has no per-token values (written by an older "
            "version); run 'shortcutlab explain' again to shade its rows."
        )
    shown = rows[:ROWS_PER_METHOD]
    notes = ["Shading: each token's SHAP value for the row's predicted label."]
    if len(rows) > len(shown):
        notes.append(f"{len(rows) - len(shown)} of {len(rows)} rows left out of the page.")
    return ShadedRows(
        name=f"attributions-rows-{method}",
        title=f"{method}: explained rows",
        rows=[_shaded_row(row, labels, method) for row in shown],
        notes=notes,
    )


def _shaded_row(row: dict[str, Any], labels: list[str], method: str) -> ShadedRow:
    text = row["text"]
    offsets = [tuple(pair) for pair in row["token_offsets"]]
    in_cue = tokens_in_spans(offsets, [tuple(span) for span in row["cue_spans"]])
    tokens, position = [], 0
    for (start, end), value, cue in zip(offsets, row["token_values"], in_cue, strict=True):
        if start > position:  # whitespace and anything the tokenizer skipped: not attributed
            tokens.append(ShadedToken(text=text[position:start], weight=None))
        tokens.append(ShadedToken(text=text[start:end], weight=float(value), in_cue=bool(cue)))
        position = end
    if position < len(text):
        tokens.append(ShadedToken(text=text[position:], weight=None))
    title = (
        f"{method} · row {row['row_id']}: predicted {labels[row['predicted']]} "
        f"(p = {row['probability']:.3f}; {row['probability_without_cue']:.3f} without the cue)"
    )
    return ShadedRow(row_id=str(row["row_id"]), title=title, tokens=tokens)
