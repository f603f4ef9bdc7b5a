"""The documentation site builds with ``mkdocs build --strict``: no warning, no broken link between
pages, no broken anchor, every docstring of the API reference readable."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import shortcutlab

# Builds the whole MkDocs site. The quick loop (-m "not slow") leaves it out.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> tuple[subprocess.CompletedProcess[str], Path]:
    if importlib.util.find_spec("mkdocs") is None:
        pytest.skip('mkdocs is not installed (pip install -e ".[docs]")')
    out = tmp_path_factory.mktemp("site")
    # The API reference and the CLI hook read the sources: a checkout run with PYTHONPATH=src
    # must still find them, and Material's end-of-life banner is not a build warning.
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), env.get("PYTHONPATH", "")])
    build = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    return build, out


@pytest.mark.slow
def test_the_site_builds_without_a_warning(site):
    build, out = site
    warnings = [line for line in build.stderr.splitlines() if "WARNING" in line]
    assert build.returncode == 0 and warnings == [], build.stderr[-4000:]
    assert (out / "index.html").is_file()


def test_the_cli_reference_shows_every_commands_help(site):
    _, out = site
    page = (out / "reference" / "cli" / "index.html").read_text(encoding="utf-8")
    headings = re.findall(r'<h2 id="([^"]+)"', page)
    assert {"shortcutlab", "shortcutlab-build-maze", "shortcutlab-evaluate"} <= set(headings)
    assert "Usage: shortcutlab build maze [OPTIONS]" in page
    assert "cli-reference" not in page  # the marker was replaced


def test_the_api_reference_documents_every_public_name():
    page = (ROOT / "docs" / "reference" / "python-api.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^::: shortcutlab\.(\w+)$", page, flags=re.MULTILINE))
    assert set(shortcutlab.__all__) - {"__version__"} - documented == set()
