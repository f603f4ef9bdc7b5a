"""The three kinds of ``shortcutlab build``: the command's options mapped onto
:func:`build_maze_benchmark`, :func:`build_mps_benchmark` or :func:`build_suite_benchmark`, and
the options of one family refused in the others."""

from __future__ import annotations

from typing import Any

import typer
from rich.console import Console

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
    "inject_on",
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
SUITE_OPTIONS = ("sets", "size", "rewriter", "rewriter_option", "hans", "paws", "min_overlap")
FAMILY_OPTIONS = {"maze": MAZE_OPTIONS, "mps": MPS_OPTIONS, "suite": SUITE_OPTIONS}


def check_family_options(ctx: typer.Context, family: str) -> None:
    """Refuse options of another family (they would be ignored silently), a Maze build without
    its test table or shortcut, and a Suite build without its sets."""
    check_choice("family", family, tuple(FAMILY_OPTIONS))
    own = set(FAMILY_OPTIONS[family])
    # Typer ships its own copy of click, so the source is compared by name, not by class.
    given = [
        name
        for other, names in FAMILY_OPTIONS.items()
        if other != family
        for name in names
        if name not in own
        and getattr(ctx.get_parameter_source(name), "name", "DEFAULT") not in DEFAULT_SOURCES
    ]
    if given:
        given = list(dict.fromkeys(given))
        flags = ", ".join("--" + name.replace("_", "-") for name in given)
        theirs = " or ".join(
            f"--family {other}"
            for other, names in FAMILY_OPTIONS.items()
            if other != family and given[0] in names
        )
        raise ConfigError(
            f"{flags} {'applies' if len(given) == 1 else 'apply'} to {theirs}, not "
            f"--family {family}. Drop {'it' if len(given) == 1 else 'them'} or pass {theirs}."
        )
    required = {"maze": ("test", "shortcut"), "suite": ("sets",)}.get(family, ())
    for name in required:
        if ctx.params[name] is None:
            kind = "Shortcut Maze" if family == "maze" else "Shortcut Suite"
            raise ConfigError(
                f"A {kind} build needs --{name}. Pass it"
                + (
                    ", or --family mps for an MPS build."
                    if family == "maze"
                    else ", e.g. --sets standard,negation."
                )
            )
    if family == "suite" and ctx.params["test"] is not None:
        raise ConfigError(
            "--test applies to --family maze or mps; a Shortcut Suite build makes test sets from --train. Drop it."
        )


def build_maze(params: dict[str, Any]) -> Any:
    from shortcutlab.families.maze.build import build_maze_benchmark
    from shortcutlab.families.maze.distractors import distractor_from_files

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
        inject_on=params["inject_on"],
        **_shared(params),
    )


def build_mps(params: dict[str, Any]) -> Any:
    from shortcutlab.families.mps.build import build_mps_benchmark

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


def build_suite(params: dict[str, Any]) -> Any:
    from shortcutlab.families.suite.build import DEFAULT_SIZE, build_suite_benchmark

    size = parse_size(params["size"], flag="--size")
    if size == "even":
        raise ConfigError(
            "--size even applies to --family mps; a suite set takes a number of rows."
        )
    if params["labels"] is not None:
        raise ConfigError(
            "--labels applies to --family maze or mps; a Shortcut Suite build balances every label it finds. Drop it."
        )
    shared = _shared(params)
    return build_suite_benchmark(
        params["train"],
        sets=params["sets"],
        size=DEFAULT_SIZE if size is None else size,
        seed=params["seed"],
        rewriter=params["rewriter"],
        rewriter_options=parse_key_values(params["rewriter_option"], flag="--rewriter-option"),
        hans=params["hans"],
        paws=params["paws"],
        min_overlap=params["min_overlap"],
        **shared,
    )


def suite_summary(console: Console, build: Any) -> None:
    """One line per written set: rows, label counts, and sub-cases or positions where it has them."""
    console.print(f"Built Shortcut Suite sets (seed {build.manifest['seed']}) in {build.path}")
    for record in build.manifest["splits"].values():
        labels = ", ".join(f"{k} {v}" for k, v in record["label_counts"].items())
        extra = ""
        if "subcase_counts" in record:
            counts = record["subcase_counts"].values()
            extra = f"; {len(counts)} sub-cases of {min(counts)}–{max(counts)} rows"
        elif "position_counts" in record:
            extra = "; " + ", ".join(f"{k} {v}" for k, v in record["position_counts"].items())
        console.print(f"  {record['file']}: {record['rows']} rows ({labels}{extra})")


def _shared(params: dict[str, Any]) -> dict[str, Any]:
    """The options both families read the same way."""
    names = ("text_col", "label_col", "text_pair_col", "encoding", "on_empty", "out", "overwrite")
    return {name: params[name] for name in names} | {"fmt": params["fmt"]}
