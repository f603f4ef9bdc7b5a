"""The dataset card (``README.md``) of an exported benchmark: the Hub's YAML metadata, then prose
saying how the benchmark was built (from its manifest) and which papers the protocol comes from.

The YAML block follows the Hub's dataset card specification: ``license``, ``task_categories``,
``configs`` (each split's Parquet files under ``data/``) and ``dataset_info`` (features, splits).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import yaml

from shortcutlab._version import __version__
from shortcutlab.families import family_of_manifest

#: How the card names the build arguments readers look for first.
HEADLINE_ARGUMENTS = {
    "shortcut": "shortcut",
    "attribute": "attribute",
    "strength": "λ (strength of the training splits)",
    "test_strength": "λ of test and anti-test",
    "strength_mode": "strength mode",
    "schedule": "label schedule",
    "sampling": "sampling",
    "seed": "seed",
}


def card_text(
    *,
    manifest: Mapping[str, Any],
    features_yaml: list[dict[str, Any]] | None,
    split_rows: Mapping[str, int],
    split_names: Mapping[str, str],
    license: str,
    data_files: Mapping[str, str],
) -> str:
    """The whole README.md: YAML front matter, then the build's description."""
    metadata = {
        "license": license,
        "task_categories": ["text-classification"],
        "tags": ["shortcut-learning", "spurious-correlations", "shortcutlab"],
        "configs": [
            {
                "config_name": "default",
                "data_files": [{"split": s, "path": p} for s, p in data_files.items()],
            }
        ],
        "dataset_info": ({"features": features_yaml} if features_yaml else {})
        | {"splits": [{"name": s, "num_examples": int(n)} for s, n in split_rows.items()]},
    }
    front = yaml.safe_dump(metadata, sort_keys=False, allow_unicode=True)
    kind = str(manifest.get("kind", "benchmark"))
    found = family_of_manifest(kind)
    protocol, citation = (found.title, found.citation) if found else (kind, "")
    lines = [
        "---",
        front.rstrip(),
        "---",
        "",
        f"# {protocol} benchmark built with shortcutlab",
        "",
        f"Exported by shortcutlab {__version__} from a `{kind}` benchmark folder. Load it with "
        '`datasets.load_from_disk(DIR)` or `load_dataset("parquet", data_files=...)` on '
        "`data/*.parquet`; `label` is a `ClassLabel` whose names are the benchmark's labels.",
        "",
        *_arguments_section(manifest.get("arguments", {})),
        *_splits_section(manifest.get("splits", {}), split_rows, split_names),
        *_inputs_section(manifest.get("inputs", {})),
        "## Citation",
        "",
        f"The protocol comes from: {citation}" if citation else "No paper is recorded for it.",
        "",
        "Cite shortcutlab as its CITATION.cff says.",
        "",
        "## Manifest",
        "",
        "The build's full manifest, as `shortcutlab build` wrote it:",
        "",
        "```json",
        json.dumps(manifest, indent=2, ensure_ascii=False, sort_keys=True),
        "```",
        "",
    ]
    return "\n".join(lines)


def _arguments_section(arguments: Mapping[str, Any]) -> list[str]:
    shown = [key for key in HEADLINE_ARGUMENTS if key in arguments]
    rows = [f"| {HEADLINE_ARGUMENTS[key]} | {_cell(arguments[key])} |" for key in shown]
    rows += [f"| {key} | {_cell(value)} |" for key, value in arguments.items() if key not in shown]
    return ["## How it was built", "", "| argument | value |", "|---|---|", *rows, ""]


def _splits_section(
    records: Mapping[str, Any], split_rows: Mapping[str, int], split_names: Mapping[str, str]
) -> list[str]:
    rows = []
    for original, split in split_names.items():
        record = records.get(original, {}) if isinstance(records, Mapping) else {}
        strength = record.get("strength", "") if isinstance(record, Mapping) else ""
        schedule = record.get("schedule", "") if isinstance(record, Mapping) else ""
        source = "" if original == split else f" (set `{original}`)"
        rows.append(
            f"| {split}{source} | {split_rows[split]} | {_cell(strength)} | {_cell(schedule)} |"
        )
    header = ["## Splits", "", "| split | rows | λ | schedule |", "|---|---|---|---|"]
    return [*header, *rows, ""]


def _inputs_section(inputs: Mapping[str, Any]) -> list[str]:
    rows = [
        f"| {role} | {_cell(record.get('path'))} | `{record.get('sha256')}` |"
        for role, record in inputs.items()
        if isinstance(record, Mapping)
    ]
    header = ["## Inputs", "", "| input | path | sha256 |", "|---|---|---|"]
    return [*header, *rows, ""] if rows else []


def _cell(value: Any) -> str:
    """A value in a Markdown table cell: JSON for structures, pipes escaped."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text.replace("|", "\\|").replace("\n", " ")
