"""The README stays short, its links resolve, CI installs as it says, and its demo excerpt is what
the demo prints (regenerate with ``python tools/readme_excerpt.py``)."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
import yaml

import shortcutlab
from tools.doc_pages import commands_of, console_blocks
from tools.readme_commands import quick_start, readme_script
from tools.readme_excerpt import (
    DEMO_STDOUT_ENV,
    demo_output,
    excerpt,
    figures_apart,
    readme_block,
    with_block,
)

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
    (bench/ holds the bench scripts) would be refused as not empty. What the clone has is what
    git tracks, not what earlier runs of these very commands left in this checkout."""
    commands = [c for block in console_blocks(README) for c in commands_of(block)]
    outs = [m for command in commands for m in re.findall(r"--out[= ](\S+)", command)]
    assert outs, "the README's commands write somewhere"
    tracked = tracked_paths()
    assert [out for out in outs if Path(out).parts[0] in tracked] == []


def tracked_paths() -> set[str]:
    """The first part of every path git tracks in this checkout (its files' top-level names)."""
    listing = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    if listing.returncode != 0:
        pytest.skip("not a git checkout: which paths the clone has is unknown")
    return {Path(line).parts[0] for line in listing.stdout.splitlines() if line}


def test_ci_runs_the_readme_commands_in_a_new_users_order():
    """.ci/run runs tools/readme_commands.py's script: install and demo, the three commands with
    their set-up, then the test command (PyTorch's CPU wheel, the test extra through the lock)."""
    assert "python3 tools/readme_commands.py" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    commands = [line for line in readme_script(README).splitlines() if not line.startswith("echo")]
    assert commands[0] == "set -euo pipefail"
    assert commands[1].endswith("&& .venv/bin/shortcutlab demo")
    assert commands[2] == ".venv/bin/shortcutlab generate --out data"
    assert [c.split()[1] for c in commands[3:-1] if c.startswith(".venv")] == [
        "build",
        "evaluate",
        "report",
    ]
    torch = "install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu"
    assert torch in commands[-1] and commands[-1].endswith(".venv/bin/python -m pytest")
    assert '-e ".[test]" -c constraints.txt' in commands[-1]


def test_ci_keeps_the_demos_output_for_the_excerpt_test(tmp_path):
    """With --keep-demo-output the script copies the demo's stdout alone (not the install's
    before it, at the excerpt's width) and names the file to the tests; the commands themselves
    stay the README's."""
    assert "readme_commands.py --keep-demo-output" in (ROOT / ".ci" / "run").read_text("utf-8")
    kept = tmp_path / "demo.stdout"
    script = readme_script(README, demo_output=str(kept))
    plain = readme_script(README)
    demo, tests = quick_start(README)
    setup, _, run = demo.rpartition(" && ")
    line = f"{setup} && {{ COLUMNS=100 NO_COLOR=1 {run} | tee '{kept}'; }}"
    assert line in script.splitlines()
    assert f"export {DEMO_STDOUT_ENV}='{kept}'\n{tests}\n" in script
    assert "tee" not in plain and DEMO_STDOUT_ENV not in plain
    # Run with the install, the demo and the tests swapped for echo: the copy holds the demo's
    # stdout only, the width reaches the demo, and the tests see the copy's path.
    fake = "\n".join(
        [
            "set -euo pipefail",
            line.replace(setup, "echo 'pip printed this'").replace(
                run, "sh -c 'echo \"the demo printed this at $COLUMNS\"'"
            ),
            f"export {DEMO_STDOUT_ENV}='{kept}'",
            f'echo "tests see ${DEMO_STDOUT_ENV}"',
        ]
    )
    ran = subprocess.run(["bash", "-c", fake], capture_output=True, text=True, check=True)
    assert kept.read_text() == "the demo printed this at 100\n"
    assert "pip printed this" in ran.stdout and f"tests see {kept}" in ran.stdout


def test_a_readme_without_its_two_quick_start_commands_is_named():
    with pytest.raises(ValueError, match="holds 1 commands"):
        quick_start("## Quick start\n```bash\npip install .\n```\n## Next\n")


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


@pytest.mark.slow
def test_the_readme_excerpt_is_what_the_demo_prints(tmp_path):
    """The demo runs here, or (CI) its stdout is read from the run of the README's own first
    command on this checkout: a second run of it cost CI about 3 minutes."""
    kept = os.environ.get(DEMO_STDOUT_ENV)
    if kept:
        printed = excerpt(Path(kept).read_text(encoding="utf-8"))
    else:
        printed = excerpt(demo_output(tmp_path / "demo"))
    apart = figures_apart(readme_block(README), printed)
    assert apart is None, (
        f"README.md's demo excerpt is stale ({apart}): run `python tools/readme_excerpt.py` "
        "(PYTHONPATH=src in a checkout) and commit README.md"
    )


def test_another_machines_last_digit_is_not_a_stale_excerpt():
    """The figures an AVX2 machine printed beside this excerpt's AVX-512 ones (issue 34)."""
    avx512 = "Test │ 0.646 │ 0.639\nΔ │ 0.065* │ 0.041*\nVAR(Δ) │ 9.7e-06\nCI │ [0.014, 0.034]"
    avx2 = "Test │ 0.645 │ 0.639\nΔ │ 0.065* │ 0.041*\nVAR(Δ) │ 3.6e-06\nCI │ [0.015, 0.034]"
    assert figures_apart(avx512, avx2) is None


@pytest.mark.parametrize(
    ("printed", "named"),
    [
        ("Test │ 0.649 │ 0.639", "0.646 became 0.649"),
        ("Test │ 0.646 │ 0.639 │ 0.6", "'Test │ 0.646 │ 0.639' became"),
        ("Tested │ 0.646 │ 0.639", "became 'Tested"),
        ("Test │ 9.7e-05 │ 0.639", "9.7e-06 became 9.7e-05"),
        ("Test │ 0.646", "'Test │ 0.646 │ 0.639' became"),
    ],
)
def test_a_figure_that_moved_more_or_changed_text_is_stale(printed, named):
    expected = "Test │ 0.646 │ 0.639" if "e-0" not in printed else "Test │ 9.7e-06 │ 0.639"
    apart = figures_apart(expected, printed)
    assert apart is not None and named in apart


def test_the_citation_file_cites_the_release_and_the_papers_the_readme_lists():
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert citation["cff-version"] == "1.2.0" and citation["version"] == shortcutlab.__version__
    assert citation["license"] == "Apache-2.0"
    titles = [reference["title"] for reference in citation["references"]]
    assert len(titles) == 4
    cited = " ".join(README.split("## How to cite", 1)[1].split())
    assert [title for title in titles if title not in cited] == []
