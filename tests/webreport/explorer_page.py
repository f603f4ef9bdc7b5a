"""A minimal page around one RowExplorer block, rendered as the report renderer does (the package's
templates, autoescape, StrictUndefined, ``as_data`` = dataclasses.asdict, the static js/css
inlined, the report's Content-Security-Policy), so the block can be tested on its own."""

from __future__ import annotations

import dataclasses
from importlib.resources import files
from pathlib import Path

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup

from shortcutlab.reports.html.document import RowExplorer

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
