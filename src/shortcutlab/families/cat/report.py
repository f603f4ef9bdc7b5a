"""Report sections of CAT outputs (paper 003): a CAT grid run (``family: cat``) gives the table
``shortcutlab results`` prints; a ``shortcutlab cat`` folder (results.json) gives its accuracy,
attentiveness (overall and per predicted label) and the partial-input / majority baselines."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from shortcutlab.data.reading import results_with
from shortcutlab.families.cat import export as cat_report
from shortcutlab.families.cat.export import accuracy_text, percent_text
from shortcutlab.reports.html.collect import missing
from shortcutlab.reports.html.document import Block, Facts, Section, Table

CAT_KEYS = ("config", "accuracy", "attentiveness", "baselines")


def grid_sections(found: Any) -> list[Section]:
    """The section of a CAT grid run (``found.results`` loaded): the table ``results`` prints."""
    return [_grid_section(found.results)]


def table_blocks(results: Any) -> list[Block]:
    """The table of a CAT grid run's section."""
    return _grid_section(results).blocks


def recognises(path: Path) -> bool:
    """A ``shortcutlab cat --out`` folder: a results.json with the CAT keys."""
    return results_with(path, CAT_KEYS) is not None


def sections(found: Any) -> list[Section]:
    results = results_with(found.path, CAT_KEYS)
    if results is None:  # recognised, then changed under us: say so rather than fail the page
        notice = missing(f"'{found.path}' no longer holds a CAT results.json.")
        return [Section(id="cat", title="CAT", blocks=[notice])]
    return [_single_section(results)]


def _grid_section(results: Any) -> Section:
    table = Table(
        name="cat-grid",
        title=cat_report.TITLE,
        frame=cat_report.cat_table(results.groups),
        notes=list(cat_report.NOTES),
    )
    return Section(
        id="cat",
        title="CAT: attentiveness and partial-input baselines",
        blocks=[table],
        intro="Counterfactual Attentiveness Test (paper 003, section 3.3): how often a pair "
        "model's prediction changes when x1 comes from another row.",
    )


def _single_section(results: dict[str, Any]) -> Section:
    """A ``shortcutlab cat`` folder's section: the run's facts, accuracy and attentiveness
    (overall and per predicted label), and the baselines."""
    attentiveness = results["attentiveness"]
    config = results["config"]
    model = config["model"] + (" + CAT augmentation" if config["augment"] else "")
    overall = pd.DataFrame(
        {
            "accuracy": [accuracy_text(results["accuracy"])],
            "attentiveness": [_mean_std(attentiveness)],
            "k sets": [str(attentiveness["k"])],
            "rows kept": [f"{attentiveness['rows_kept']} of {attentiveness['rows_total']}"],
        },
        index=pd.Index([model], name="model"),
    )
    per_label = pd.DataFrame(
        [
            {"predicted": str(label), "attentiveness": _mean_std(entry), "rows": entry["rows"]}
            for label, entry in attentiveness["per_label"].items()
        ]
    ).set_index("predicted")
    return Section(
        id="cat",
        title="CAT: attentiveness and partial-input baselines",
        blocks=[
            _run_facts(results, model),
            Table(
                name="cat-attentiveness",
                title="Accuracy and attentiveness (%)",
                frame=overall,
                notes=[
                    "Attentiveness: share of kept rows (prediction not the default label) whose "
                    "prediction changes when x1 comes from another row; mean ± std over the k sets."
                ],
            ),
            Table(
                name="cat-per-label",
                title="Attentiveness per predicted label (%)",
                frame=per_label,
            ),
            _baselines_table(results),
        ],
        intro="Counterfactual Attentiveness Test (paper 003): 'shortcutlab cat' output.",
    )


def _run_facts(results: dict[str, Any], model: str) -> Facts:
    config, data = results["config"], results["data"]
    items = [
        ("model", model),
        ("default label", str(config["default_label"])),
        ("replaced part", str(config["replace"])),
        ("seed", str(config["seed"])),
        ("test rows", str(data["test_rows"])),
        ("train rows fitted", str(data["train_rows_fitted"])),
    ]
    if "export_check" in results:
        check = results["export_check"]
        items.append(("pairs to judge by hand", f"{check['rows']} in {check['file']}"))
    return Facts(title="CAT run", items=items)


def _baselines_table(results: dict[str, Any]) -> Table:
    """Full input, partial input, majority and naive partial input, with the McNemar test of
    partial input against the majority."""
    base = results["baselines"]
    test = base["partial_vs_majority"]
    naive = base["naive_partial_input"]
    baselines = pd.DataFrame(
        {
            "accuracy (%)": [
                accuracy_text(results["accuracy"]),
                accuracy_text(base["partial_input"]),
                accuracy_text(base["majority"]),
                accuracy_text(naive),
            ]
        },
        index=pd.Index(
            [
                "full input",
                f"partial input ({base['partial_input']['trained_on']} only)",
                f"majority ({base['majority']['label']})",
                f"naive partial input ({naive['evaluated_on']})",
            ],
            name="model",
        ),
    )
    notes = [
        f"{results['accuracy']['interval_note']}.",
        f"Partial input vs majority: exact McNemar p = {test['p_value']:.3g} "
        f"(b={test['b']}, c={test['c']}).",
        "The naive partial input gives the same prediction as the full input on "
        f"{percent_text(naive['agreement_with_full_input'])} % of rows.",
    ]
    return Table(name="cat-baselines", title="Baselines", frame=baselines, notes=notes)


def _mean_std(entry: dict[str, Any]) -> str:
    return f"{percent_text(entry['mean'])} ± {percent_text(entry['std'])}"
