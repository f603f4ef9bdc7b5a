"""The start-up every ``shortcutlab`` process pays, next to the plain script's ``import pandas``.

Each case runs as whole processes, this checkout's ``src``, its alternative and (``--before``)
another checkout's ``src`` in the same interleaved rounds (bench/paired.py): ``shortcutlab --version``, ``shortcutlab build maze --help``, and a small real
``shortcutlab build maze`` (generated corpus, 2,000 training and 1,000 test rows) next to the plain
pandas script of ``bench/build_throughput.py`` on the same files; ``python -c "import pandas"`` is
the floor every plain script pays, and the alternative of the two cases that do no work. It prints
median wall seconds, the ratios, and the import-time totals (``python -X importtime``, self times
summed) of each command.

    python bench/startup_time.py [--before OTHER_CHECKOUT/src] [--pairs 5] [--save]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import paired
from build_throughput import PLAIN

SRC = Path(__file__).resolve().parents[1] / "src"
SMALL_BUILD = ["--shortcut", "single-term", "--strength", "0.8"]


def tool(src: Path, *args: str) -> list[str]:
    return ["env", f"PYTHONPATH={src}", sys.executable, "-m", "shortcutlab", *args]


def import_ms(command: list[str]) -> float:
    """Milliseconds of imports (self times summed) that ``-X importtime`` reports for a run."""
    traced = [*command[:3], "-X", "importtime", *command[3:]]
    done = subprocess.run(traced, capture_output=True, text=True, check=True)
    lines = [line for line in done.stderr.splitlines() if line.startswith("import time:")]
    return sum(int(line.split("|")[0].split(":")[1]) for line in lines[1:]) / 1000


def corpus(workdir: Path) -> tuple[Path, Path]:
    folder = workdir / "data"
    subprocess.run(
        tool(SRC, "generate", "--out", str(folder), "--train-size", "2000", "--test-size", "1000"),
        check=True, capture_output=True,
    )  # fmt: skip
    return folder / "train.csv", folder / "test.csv"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--before", type=paired.source_tree, help="another checkout's src folder, or a git revision"
    )
    paired.add_options(parser)
    options = parser.parse_args()
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        train, test = corpus(workdir)
        plain_script = workdir / "plain.py"
        plain_script.write_text(PLAIN, encoding="utf-8")
        build = ["build", "maze", "--train", str(train), "--test", str(test), *SMALL_BUILD]
        pandas_floor = paired.Side(
            "python -c 'import pandas'", lambda: [sys.executable, "-c", "import pandas"]
        )
        plain_out = workdir / "plain-out"
        plain_build = paired.Side(
            "plain pandas script",
            lambda: [
                sys.executable,
                str(plain_script),
                str(train),
                str(test),
                str(plain_out),
                "single-term",
            ],
            prepare=lambda: plain_out.mkdir(exist_ok=True),
        )
        cases = {
            "--version": (["--version"], pandas_floor),
            "build maze --help": (["build", "maze", "--help"], pandas_floor),
            "build maze, 3,000 rows": (
                [*build, "--overwrite", "--out", str(workdir / "b")],
                plain_build,
            ),
        }
        for case, (args, alternative) in cases.items():
            sides = [alternative]
            if options.before:
                sides.append(
                    side(
                        f"shortcutlab, {paired.tree_name(options.before)}",
                        options.before.resolve(),
                        args,
                    )
                )
            results += paired.compare_all(
                case, side("shortcutlab", SRC, args), sides, pairs=options.pairs
            )
            print(
                f"  imports (-X importtime, self times summed): {import_ms(tool(SRC, *args)):.0f} ms"
            )
    if options.save:
        paired.write_results("startup_time", results)


def side(label: str, src: Path, args: list[str]) -> paired.Side:
    return paired.Side(
        label, lambda: [sys.executable, "-m", "shortcutlab", *args], env={"PYTHONPATH": str(src)}
    )


if __name__ == "__main__":
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    main()
