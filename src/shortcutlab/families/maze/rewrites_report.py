"""Report sections of a ``shortcutlab rewrite-quality --out`` folder: the per-style summary the
CLI prints (LLM-judge criteria of the Shortcut Maze, appendix A.2.2, figure 7; embedding
similarity, length ratio, label consistency) and the rewrites below the thresholds next to their
originals."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from shortcutlab.data.csv_text import from_people_csv
from shortcutlab.data.reading import read_json_object
from shortcutlab.reports.html.collect import ReportInput, missing
from shortcutlab.reports.html.document import Block, Facts, Section, Table

QUALITY, SUMMARY, FLAGGED = "quality.json", "summary.csv", "flagged.csv"
FLAGGED_COLUMNS = ["row_id", "style", "label", "flags", "original", "rewrite"]
FLAGGED_ON_PAGE = 200  # a page budget; flagged.csv keeps them all


def recognises(path: Path) -> bool:
    quality = read_json_object(Path(path) / QUALITY)
    return (
        quality is not None
        and {"settings", "styles"} <= set(quality)
        and (Path(path) / SUMMARY).is_file()
    )


def sections(found: ReportInput) -> list[Section]:
    quality = read_json_object(found.path / QUALITY)
    if quality is None or not (found.path / SUMMARY).is_file():
        notice = missing(f"'{found.path}' no longer holds quality.json and summary.csv.")
        return [Section(id="rewrite-quality", title="Rewrite quality", blocks=[notice])]
    settings = quality["settings"]
    summary = from_people_csv(pd.read_csv(found.path / SUMMARY)).set_index("style")
    blocks: list[Block] = [
        Facts(
            title="Checked rewrites",
            items=[
                ("shortcut", str(settings["shortcut"])),
                ("styles", ", ".join(settings["styles"])),
                ("rewriter", str(settings["rewriter"])),
                ("rows", f"{settings['rows']} {settings['role']} rows, seed {settings['seed']}"),
                ("judge", str(settings["judge"] or "— (no LLM judge)")),
                ("thresholds", ", ".join(f"{k} {v:g}" for k, v in settings["thresholds"].items())),
            ],
        ),
        Table(
            name="rewrite-quality-summary",
            title=f"Rewrite quality: {settings['rewriter']} rewriter, {settings['rows']} rows "
            f"({settings['shortcut']})",
            frame=summary,
            notes=[_summary_note(summary)],
        ),
    ]
    blocks.append(_flagged(found.path / FLAGGED, int(summary["rows"].sum())))
    return [
        Section(
            id="rewrite-quality",
            title="Rewrite quality",
            blocks=blocks,
            intro="How faithful the style rewrites are; the same summary as "
            "'shortcutlab rewrite-quality'.",
        )
    ]


COLUMN_NOTES = {
    "similarity": "similarity: cosine of the sentence embeddings of original and rewrite",
    "length_ratio": "length_ratio: words of the rewrite / words of the original",
    "label_consistent": "label_consistent: share of rewrites a cross-fitted TF-IDF classifier "
    "gives the original's label",
    "meaning": "meaning, attitude, no_added, no_omitted: the judge's 1-5 scores (Shortcut Maze "
    "figure 7)",
}


def _summary_note(summary: pd.DataFrame) -> str:
    """What the summary's columns mean (only those it has: no judge, no judge columns)."""
    said = [text for column, text in COLUMN_NOTES.items() if column in summary.columns]
    return "Means per style. " + "; ".join(said) + "."


def _flagged(path: Path, rewrites: int) -> Block:
    if not path.is_file():
        return missing(f"'{path}' is missing, so the flagged rewrites are not shown.")
    flagged = from_people_csv(pd.read_csv(path, dtype={"row_id": str, "label": str, "flags": str}))
    shown = flagged[[c for c in FLAGGED_COLUMNS if c in flagged]].head(FLAGGED_ON_PAGE)
    notes = [f"{len(flagged)} of {rewrites} rewrites below the thresholds."]
    if len(flagged) > len(shown):
        notes.append(f"The first {len(shown)} are shown; flagged.csv holds them all.")
    return Table(
        name="rewrite-quality-flagged",
        title="Flagged rewrites",
        frame=shown.set_index(["row_id", "style"]),
        notes=notes,
    )
