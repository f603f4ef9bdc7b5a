"""``shortcutlab audit --save-suite``: the audit's measured reliance written as a check suite
(``shortcutlab check``), with the audit's inputs as the suite's data."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from shortcutlab.data.options import ReadingOptions

#: The option, declared here beside what it writes.
SaveSuite = Annotated[
    Path | None,
    typer.Option(
        "--save-suite",
        help="Also write a check suite (YAML) from the reliance measured: the likely "
        "shortcuts the model does not rely on must stay so ('shortcutlab check'). Needs "
        "--model and --test.",
        metavar="FILE",
    ),
]


def check_save_suite(path: Path, model: str | None, test: Path | None) -> None:
    """--save-suite writes measured reliance of a model on a suite's train and test: refuse it
    without them, before the audit runs."""
    from shortcutlab.data.writing import check_no_file_above
    from shortcutlab.errors import ConfigError

    if model is None or test is None:
        missing = "--model (the reliance it writes is a model's)" if model is None else "--test"
        raise ConfigError(
            f"--save-suite writes a check suite from the measured reliance; give {missing}."
        )
    check_no_file_above(path)


def suite_data(
    data: Path, test: Path | None, reading: ReadingOptions, labels: list[str] | None
) -> dict[str, Any]:
    """The audit's inputs as a suite's data entry: absolute paths and the reading keys set."""
    defaults = ReadingOptions()
    entry: dict[str, Any] = {"train": str(data.resolve()), "test": str(Path(test or "").resolve())}
    for key, name in (
        ("text", "text_col"),
        ("label", "label_col"),
        ("text_pair", "text_pair_col"),
        ("encoding", "encoding"),
        ("on_empty", "on_empty"),
    ):
        if getattr(reading, name) != getattr(defaults, name):
            entry[key] = getattr(reading, name)
    if labels:
        entry["labels"] = labels
    return entry


def write_suite(path: Path, result: Any, data: dict[str, Any], *, seed: int, top: int) -> None:
    from shortcutlab.check.saved import audit_suite, suite_yaml
    from shortcutlab.data.writing import write_text_atomically

    suite = audit_suite(
        result.table, data, name=f"audit-{Path(data['train']).stem}", measure_top=top
    )
    if seed:
        suite = {
            **{k: v for k, v in suite.items() if k != "requirements"},
            "seed": seed,
            "requirements": suite["requirements"],
        }
    write_text_atomically(path, suite_yaml(suite), option="save_suite")
