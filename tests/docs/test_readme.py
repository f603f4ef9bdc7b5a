"""The README stays short, its links resolve, CI installs as it says, and its demo excerpt is what
the demo prints (regenerate with ``python tools/readme_excerpt.py``)."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

import shortcutlab
from tests.docs.doc_pages import commands_of, console_blocks
from tools.readme_excerpt import demo_output, excerpt, readme_block, with_block

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_readme_stays_short():
    assert len(README.splitlines()) <= 200


def test_every_relative_link_of_the_readme_resolves():
    targets = re.findall(r"\]\((?!https?://)([^)#\s]+)", README)
    assert targets, "the README links to the docs"
    missing = [target for target in targets if not (ROOT / target).exists()]
    assert missing == []


def test_the_readme_commands_write_nowhere_the_clone_already_has():
    """A new user runs them in the fresh clone: an --out named like a folder of the repository
    (bench/ holds the bench scripts) would be refused as not empty."""
    commands = [c for block in console_blocks(README) for c in commands_of(block)]
    outs = [m for command in commands for m in re.findall(r"--out[= ](\S+)", command)]
    assert outs, "the README's commands write somewhere"
    assert [out for out in outs if (ROOT / out).exists()] == []


def test_ci_installs_torch_as_the_readme_says():
    command = "install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu"
    assert command in README
    assert command in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_the_excerpt_keeps_the_first_shortcut_and_the_closing_lines():
    printed = "\n".join(
        [
            "Accuracy by λ",
            "shortcut ┃ row  ┃ 1.0",
            "━━━━━━━━━╇━━━━━━╇━━━━",
            "one      │ Test │ 0.6",
            "         │ Δ    │ 0.1",
            "─────────┼──────┼────",
            "two      │ Test │ 0.7",
            "tfidf-logreg relies on one: accuracy falls from 0.60 to 0.50.",
            "Wrote everything to demo in 41s",
        ]
    )
    assert excerpt(printed).splitlines() == [
        "Accuracy by λ",
        "shortcut ┃ row  ┃ 1.0",
        "━━━━━━━━━╇━━━━━━╇━━━━",
        "one      │ Test │ 0.6",
        "         │ Δ    │ 0.1",
        "…",
        "tfidf-logreg relies on one: accuracy falls from 0.60 to 0.50.",
    ]


def test_the_block_is_replaced_between_its_markers_only():
    readme = (
        "intro\n<!-- demo-excerpt:start -->\n```text\nold\n```\n<!-- demo-excerpt:end -->\nend\n"
    )
    updated = with_block(readme, "new\nlines")
    assert updated.startswith("intro\n") and updated.endswith("\nend\n")
    assert readme_block(updated) == "new\nlines"


def test_the_readme_excerpt_is_what_the_demo_prints(tmp_path):
    printed = excerpt(demo_output(tmp_path / "demo"))
    assert readme_block(README) == printed, (
        "README.md's demo excerpt is stale: run `python tools/readme_excerpt.py` "
        "(PYTHONPATH=src in a checkout) and commit README.md"
    )


def test_the_citation_file_cites_the_release_and_the_papers_the_readme_lists():
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert citation["cff-version"] == "1.2.0" and citation["version"] == shortcutlab.__version__
    assert citation["license"] == "Apache-2.0"
    titles = [reference["title"] for reference in citation["references"]]
    assert len(titles) == 4
    cited = " ".join(README.split("## How to cite", 1)[1].split())
    assert [title for title in titles if title not in cited] == []
