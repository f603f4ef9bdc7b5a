"""Parsing of the CLI's small text formats (KEY=VALUE options, comma lists) into Python values,
and the options several commands share (``--details``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from shortcutlab.errors import ConfigError
from shortcutlab.params import quoted

#: ``--details`` of the commands that end with findings: their footnotes print only when asked.
Details = Annotated[
    bool,
    typer.Option(
        "--details",
        help="Also print the footnotes: the tests, corrections, intervals and definitions "
        "behind the figures.",
    ),
]


def parse_key_values(pairs: list[str] | None, *, flag: str) -> dict[str, Any]:
    """``["term=frankly", "terms=[a, b]", "train_cities=@cities.txt"]`` -> a dict of values.

    Values are read as YAML scalars or lists; ``@FILE`` reads one item per line of FILE.
    """
    parsed: dict[str, Any] = {}
    for pair in pairs or []:
        key, sep, raw = pair.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not key:
            raise ConfigError(f"{flag} expects KEY=VALUE. Got {quoted(pair)} instead.")
        parsed[key] = _value(raw.strip(), flag=flag)
    return parsed


def parse_client(raw: str | None, *, flag: str) -> dict[str, Any] | None:
    """An LLM client written as YAML (``{name: openai-chat, base_url: URL, model: NAME}``), the
    mapping ``make_client`` takes; None when the option is not given."""
    if raw is None:
        return None
    value = parse_key_values([f"client={raw}"], flag=flag)["client"]
    if not isinstance(value, dict):
        raise ConfigError(
            f"{flag} must be a YAML mapping like '{{name: openai-chat, base_url: URL, model: NAME}}'. Got {quoted(raw)} instead."
        )
    return value


def _value(raw: str, *, flag: str) -> Any:
    if raw.startswith("@"):
        path = Path(raw[1:])
        if not path.is_file():
            raise ConfigError(f"{flag} reads the list file '{path}', which does not exist.")
        return [
            line.strip()
            for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")
        ]
    import yaml

    from shortcutlab.yaml_reading import load_yaml

    try:  # aliases past the bound and duplicate keys are refused, not read as text
        return load_yaml(raw, flag) if raw else ""
    except yaml.YAMLError:
        return raw


def parse_named_paths(pairs: list[str] | None, *, flag: str) -> dict[str, str]:
    """``["aroma=aroma.csv"]`` -> ``{"aroma": "aroma.csv"}``."""
    parsed: dict[str, str] = {}
    for pair in pairs or []:
        name, sep, path = pair.partition("=")
        if not sep or not name.strip() or not path.strip():
            raise ConfigError(f"{flag} expects NAME=PATH. Got {quoted(pair)} instead.")
        parsed[name.strip()] = path.strip()
    return parsed


def parse_list(raw: str | None) -> list[str] | None:
    """``"a,b, c"`` -> ``["a", "b", "c"]``; None stays None."""
    if raw is None:
        return None
    items = [item.strip() for item in raw.split(",")]
    return [item for item in items if item]


def parse_floats(raw: str | None, *, flag: str) -> list[float] | None:
    items = parse_list(raw)
    if items is None:
        return None
    try:
        return [float(item) for item in items]
    except ValueError as exc:
        raise ConfigError(
            f"{flag} expects comma-separated numbers such as 0,0.5,1. Got {quoted(raw)} instead."
        ) from exc


def parse_dominant(pairs: list[str] | None, *, flag: str) -> dict[str, list[str]] | None:
    """``["with_negation=neg", "without_negation=pos,neutral"]`` -> ``{"with_negation": ["neg"],
    "without_negation": ["pos", "neutral"]}``; a value given twice collects both labels."""
    if not pairs:
        return None
    parsed: dict[str, list[str]] = {}
    for pair in pairs:
        value, sep, raw = pair.partition("=")
        labels = parse_list(raw) if sep else None
        if not value.strip() or not labels:
            raise ConfigError(
                f"{flag} expects VALUE=LABEL or VALUE=LABEL,LABEL. Got {quoted(pair)} instead."
            )
        parsed.setdefault(value.strip(), []).extend(labels)
    return parsed


def count_or_fraction(value: float | None) -> int | float | None:
    """A size option: a whole number is a row count (``500.0`` -> 500), else a fraction."""
    if value is None:
        return None
    return int(value) if float(value).is_integer() else value


def parse_size(raw: str | None, *, flag: str) -> int | str | None:
    """``"500"`` -> 500; ``"even"`` stays a word (the builder checks both)."""
    if raw is None or raw.strip().lower() == "even":
        return None if raw is None else "even"
    try:
        return int(raw)
    except ValueError as exc:
        raise ConfigError(
            f"{flag} expects a whole number of rows or 'even'. Got {quoted(raw)}."
        ) from exc


def parse_strength(raw: str, *, flag: str) -> float | str:
    """``"0.8"`` -> 0.8; ``"same"`` stays a word (the builder checks both)."""
    if raw.strip().lower() == "same":
        return "same"
    try:
        return float(raw)
    except ValueError as exc:
        raise ConfigError(
            f"{flag} expects a number in [0, 1] or 'same'. Got {quoted(raw)} instead."
        ) from exc


def style_file_options(
    options: dict[str, Any], rewrites: dict[str, str], encoding: str | None, shortcut: str
) -> dict[str, Any]:
    """Fold ``--rewrites STYLE=PATH`` and ``--rewrite-encoding`` into the shortcut's options."""
    if not rewrites and encoding is None:
        return options
    from shortcutlab.shortcuts import SHORTCUTS

    style_shortcuts = SHORTCUTS.having("family", "style")
    if shortcut not in style_shortcuts:
        raise ConfigError(
            f"--rewrites and --rewrite-encoding apply to the style shortcuts "
            f"({', '.join(style_shortcuts)}); the {shortcut} shortcut takes no rewrites."
        )
    if options.get("rewriter", "file") != "file" or "rewrites" in options:
        raise ConfigError(
            "--rewrites gives the file rewriter its files; drop -o rewriter=... and -o rewrites=... "
            "or use one of the two ways."
        )
    merged = {**options, "rewriter": "file"}
    if rewrites:
        merged["rewrites"] = {style.lower(): path for style, path in rewrites.items()}
    if encoding is not None:
        merged["encoding"] = encoding
    return merged
