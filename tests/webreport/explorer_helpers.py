"""What the row explorer's tests share: a small Maze grid run, and a minimal page around one
RowExplorer block rendered as the report renderer does (the package's templates, autoescape,
StrictUndefined, ``as_data`` = dataclasses.asdict, the static js/css inlined, the report's
Content-Security-Policy), so the block can be tested on its own."""

from __future__ import annotations

import dataclasses
from importlib.resources import files
from pathlib import Path

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup

from shortcutlab.experiments.runner import run_experiment
from shortcutlab.experiments.spec import parse_spec
from shortcutlab.reports.html.document import RowExplorer

SPEC = {
    "name": "explorer",
    "data": {"builtin": "reviews", "train_size": 300, "test_size": 200},
    "shortcuts": ["single-term", "concept-correlation"],
    "strengths": [1.0],
    "models": [{"name": "tfidf-logreg"}],
    "seeds": [0],
    "bootstrap": 200,
}

CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{{ csp }}">
<title>explorer</title><style>{{ css }}</style></head>
<body>{% include "blocks/row_explorer.html.j2" %}<script>{{ js }}</script></body></html>
"""


def render_explorer_page(block: RowExplorer) -> str:
    environment = Environment(
        loader=PackageLoader("shortcutlab.reports.html"),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,  # the renderer's whitespace settings
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    environment.globals["as_data"] = dataclasses.asdict
    static = files("shortcutlab.reports.html") / "static"
    return environment.from_string(PAGE).render(
        block=block,
        csp=CSP,
        # Our own style and script (no data in them) go in unescaped, as the renderer does.
        css=Markup((static / "explorer.css").read_text(encoding="utf-8")),
        js=Markup((static / "explorer.js").read_text(encoding="utf-8")),
    )


def write_explorer_page(block: RowExplorer, path: Path) -> Path:
    path.write_text(render_explorer_page(block), encoding="utf-8")
    return path


def small_grid_run(out: Path) -> Path:
    """A finished two-cell Maze grid run (single-term and concept-correlation at λ=1) in ``out``."""
    run_experiment(parse_spec(SPEC), out)
    return out
