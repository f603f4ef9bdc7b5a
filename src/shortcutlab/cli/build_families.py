"""The two kinds of ``shortcutlab build``: the command's options mapped onto
:func:`build_maze_benchmark` or :func:`build_mps_benchmark`, and the options of one family refused
in the other."""

from __future__ import annotations

from typing import Any

import typer

from shortcutlab.cli.options import (
    count_or_fraction,
    parse_dominant,
    parse_floats,
    parse_key_values,
    parse_list,
    parse_named_paths,
    parse_size,
    parse_strength,
    style_file_options,
)
from shortcutlab.errors import ConfigError
from shortcutlab.registry import check_choice

DEFAULT_SOURCES = ("DEFAULT", "DEFAULT_MAP")
MAZE_OPTIONS = (
    "shortcut",
    "strength",
    "strength_mode",
    "test_strength",
    "sampling",
    "schedule",
    "val_size",
    "option",
    "distractor",
    "test_distractor",
    "rewrites",
    "rewrite_encoding",
)
MPS_OPTIONS = (
    "attribute",
    "attribute_option",
    "values",
    "top_values",
    "dominance",
    "dominant",
    "dominant_labels",
    "size",
    "test_size",
    "validation_size",
    "annotate_on",
    "label_mix",
)


def check_family_options(ctx: typer.Context, family: str) -> None:
    """Refuse options of the other family (they would be ignored silently) and a Maze build
    without its test table or shortcut."""
    check_choice("family", family, ("maze", "mps"))
    other, own = (MAZE_OPTIONS, "mps") if family == "mps" else (MPS_OPTIONS, "maze")
    # Typer ships its own copy of click, so the source is compared by name, not by class.
    given = [
        name
        for name in other
        if getattr(ctx.get_parameter_source(name), "name", "DEFAULT") not in DEFAULT_SOURCES
    ]
    if given:
        flags = ", ".join("--" + name.replace("_", "-") for name in given)
        theirs = "maze" if own == "mps" else "mps"
        raise ConfigError(
            f"{flags} {'applies' if len(given) == 1 else 'apply'} to --family {theirs}, not "
            f"--family {own}. Drop {'it' if len(given) == 1 else 'them'} or pass --family {theirs}."
        )
    if family == "maze":
        for name in ("test", "shortcut"):
            if ctx.params[name] is None:
                raise ConfigError(
                    f"A Shortcut Maze build needs --{name}. Pass it, or --family mps for an MPS build."
                )


def build_maze(params: dict[str, Any]) -> Any:
    from shortcutlab.splits import build_maze_benchmark, distractor_from_files

    test_paths = parse_named_paths(params["test_distractor"], flag="--test-distractor")
    distractors = None
    if params["distractor"]:
        train_paths = parse_named_paths(params["distractor"], flag="--distractor")
        distractors = {
            name: distractor_from_files(
                name,
                path,
                test_paths.get(name),
                text_col=params["text_col"],
                label_col=params["label_col"],
                encoding=params["encoding"],
            )
            for name, path in train_paths.items()
        }
    return build_maze_benchmark(
        params["train"],
        params["test"],
        shortcut=params["shortcut"],
        shortcut_options=style_file_options(
            parse_key_values(params["option"], flag="--option"),
            parse_named_paths(params["rewrites"], flag="--rewrites"),
            params["rewrite_encoding"],
            params["shortcut"],
        ),
        strength=params["strength"],
        strength_mode=params["strength_mode"],
        test_strength=parse_strength(params["test_strength"], flag="--test-strength"),
        sampling=params["sampling"],
        schedule=parse_floats(params["schedule"], flag="--schedule"),
        seed=params["seed"],
        val_size=count_or_fraction(params["val_size"]),
        labels=parse_list(params["labels"]),
        distractors=distractors,
        **_shared(params),
    )


def build_mps(params: dict[str, Any]) -> Any:
    from shortcutlab.splits import build_mps_benchmark

    return build_mps_benchmark(
        params["train"],
        params["test"],
        attribute=params["attribute"],
        attribute_options=parse_key_values(params["attribute_option"], flag="--attribute-option"),
        values=parse_list(params["values"]),
        top_values=params["top_values"],
        dominance=params["dominance"],
        dominant=parse_dominant(params["dominant"], flag="--dominant"),
        dominant_labels=params["dominant_labels"],
        size=parse_size(params["size"], flag="--size"),
        test_size=count_or_fraction(params["test_size"]),
        validation_size=count_or_fraction(params["validation_size"]),
        annotate_on=params["annotate_on"],
        label_mix=params["label_mix"],
        seed=params["seed"],
        labels=parse_list(params["labels"]),
        **_shared(params),
    )


def _shared(params: dict[str, Any]) -> dict[str, Any]:
    """The options both families read the same way."""
    names = ("text_col", "label_col", "text_pair_col", "encoding", "on_empty", "out", "overwrite")
    return {name: params[name] for name in names} | {"fmt": params["fmt"]}
