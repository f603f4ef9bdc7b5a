"""The README's demo excerpt is generated from what ``shortcutlab demo`` prints, never pasted.

    PYTHONPATH=src python tools/readme_excerpt.py    # in a checkout; plain python once installed

runs the demo in a temporary folder and rewrites the block between the README's
``<!-- demo-excerpt:start -->`` and ``<!-- demo-excerpt:end -->`` markers.
tests/docs/test_readme.py fails when the README's block differs from the demo's output.

The excerpt is the first table's header and its first shortcut, then ``…``, then the lines after
the last table (what was found, in plain words). Lines that report a duration are left out: the
demo is deterministic, its wall time is not.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
START = "<!-- demo-excerpt:start -->"
END = "<!-- demo-excerpt:end -->"
ELIDED = "…"
# The terminal width the excerpt is printed at, the same wherever it is generated or checked.
COLUMNS = "100"
#: Where tests/docs/test_readme.py finds the stdout of a demo this checkout already ran (CI's
#: README script sets it: tools/readme_commands.py --keep-demo-output).
DEMO_STDOUT_ENV = "SHORTCUTLAB_DEMO_STDOUT"
MAX_TAIL_LINES = 14
_DURATION = re.compile(r"\bin \d+(\.\d+)? ?(s|seconds|min)\b")
_TABLE_DRAWING = "│┃━─"


def demo_output(out: Path) -> str:
    """What ``shortcutlab demo --out OUT`` prints on stdout (warnings go to stderr)."""
    env = dict(os.environ, COLUMNS=COLUMNS, NO_COLOR="1")
    demo = subprocess.run(
        [sys.executable, "-m", "shortcutlab", "demo", "--out", str(out)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    if demo.returncode != 0:
        raise RuntimeError(f"shortcutlab demo exited {demo.returncode}:\n{demo.stderr[-3000:]}")
    return demo.stdout


def excerpt(stdout: str) -> str:
    """The README's excerpt of the demo's output (see the module's docstring)."""
    lines = [line.rstrip() for line in stdout.rstrip("\n").splitlines()]
    table_lines = [i for i, line in enumerate(lines) if any(c in line for c in _TABLE_DRAWING)]
    if not table_lines:
        return "\n".join(line for line in lines if not _DURATION.search(line))
    first_rule = next(i for i in table_lines if lines[i].lstrip().startswith("━"))
    # The first shortcut's rows end at the first row separator (or with the first table).
    head_end = next(
        (i for i in range(first_rule + 1, len(lines)) if lines[i].startswith("─")),
        next((i for i in range(first_rule + 1, len(lines)) if i not in table_lines), len(lines)),
    )
    tail = [line for line in lines[table_lines[-1] + 1 :] if not _DURATION.search(line)]
    if len(tail) > MAX_TAIL_LINES:
        tail = [*tail[:MAX_TAIL_LINES], ELIDED]
    return "\n".join([*lines[:head_end], ELIDED, *tail])


def readme_block(readme: str) -> str:
    """The text between the README's excerpt markers, without its code fence."""
    if START not in readme or END not in readme:
        raise ValueError(f"README.md lost its markers {START} / {END}")
    block = readme.split(START, 1)[1].split(END, 1)[0].strip("\n")
    return block.removeprefix("```text\n").removesuffix("\n```")


# A printed figure: a decimal, or a number in scientific notation (VAR(Δ), "p < 1e-12").
_FIGURE = re.compile(r"\d+(?:\.(\d+))?(e[-+]?\d+)?")


def figures_apart(expected: str, printed: str) -> str | None:
    """None when ``printed`` is ``expected`` up to the rounding of another machine, else the first
    line that differs more.

    The demo is byte-identical on one machine under the lock, but another CPU's floating-point
    kernels (AVX2 against AVX-512 OpenBLAS, say) round lbfgs's steps differently, and a few of
    its thousands of test predictions flip: an accuracy or Δ moves by a unit or two of its last
    digit, and VAR(Δ) of three seeds, or a p-value's order, by a factor of a few. The text must
    be the same; a decimal may move two units of its last digit, and a number in scientific
    notation by less than a factor of 10.
    """
    expected_lines, printed_lines = expected.splitlines(), printed.splitlines()
    if len(expected_lines) != len(printed_lines):
        return f"{len(expected_lines)} lines where the demo prints {len(printed_lines)}"
    for old, new in zip(expected_lines, printed_lines, strict=True):
        if " ".join(_FIGURE.sub("#", old).split()) != " ".join(_FIGURE.sub("#", new).split()):
            return f"{old!r} became {new!r}"
        for was, now in zip(_FIGURE.finditer(old), _FIGURE.finditer(new), strict=True):
            if not _close(was, now):
                return f"{was[0]} became {now[0]} in {new.strip()!r}"
    return None


def _close(was: re.Match[str], now: re.Match[str]) -> bool:
    old, new = float(was[0]), float(now[0])
    if was[2] or now[2]:  # scientific notation: the same order of magnitude, give or take
        return old == new or (old > 0 and new > 0 and max(old, new) < 10 * min(old, new))
    unit = 10.0 ** -len(was[1] or "")
    return abs(old - new) <= 2 * unit + 1e-12


def with_block(readme: str, text: str) -> str:
    before, rest = readme.split(START, 1)
    after = rest.split(END, 1)[1]
    return f"{before}{START}\n```text\n{text}\n```\n{END}{after}"


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        text = excerpt(demo_output(Path(folder) / "demo"))
    readme = README.read_text(encoding="utf-8")
    updated = with_block(readme, text)
    README.write_text(updated, encoding="utf-8")
    print("README.md: excerpt " + ("unchanged" if updated == readme else "updated"))


if __name__ == "__main__":
    main()
