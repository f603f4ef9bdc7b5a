"""The start-up every ``shortcutlab`` process pays, next to the plain script's ``import pandas``.

Each case runs as whole processes, this checkout's ``src`` and (``--before``) another checkout's
``src`` in the same interleaved rounds (order reversed every other round, after one untimed run of
each): ``shortcutlab --version``, ``shortcutlab build maze --help``, and a small real
``shortcutlab build maze`` (generated corpus, 2,000 training and 1,000 test rows) next to the plain
pandas script of ``bench/build_throughput.py`` on the same files; ``python -c "import pandas"`` is
the floor every plain script pays. It prints median wall seconds, the ratios, and the
import-time totals (``python -X importtime``, self times summed) of each command.

    python bench/startup_time.py [--before ../wt-merge/src] [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from build_throughput import CHILD_ENV, PLAIN, load, medians  # noqa: E402

SRC = Path(__file__).resolve().parents[1] / "src"
SMALL_BUILD = ["--shortcut", "single-term", "--strength", "0.8"]


def tool(src: Path, *args: str) -> list[str]:
    return ["env", f"PYTHONPATH={src}", sys.executable, "-m", "shortcutlab", *args]


def import_ms(command: list[str]) -> float:
    """Milliseconds of imports (self times summed) that ``-X importtime`` reports for a run."""
    traced = [*command[:3], "-X", "importtime", *command[3:]]
    done = subprocess.run(traced, capture_output=True, text=True, env=CHILD_ENV, check=True)
    lines = [line for line in done.stderr.splitlines() if line.startswith("import time:")]
    return sum(int(line.split("|")[0].split(":")[1]) for line in lines[1:]) / 1000


def corpus(workdir: Path) -> tuple[Path, Path]:
    folder = workdir / "data"
    subprocess.run(
        tool(SRC, "generate", "--out", str(folder), "--train-size", "2000", "--test-size", "1000"),
        check=True, capture_output=True, env=CHILD_ENV,
    )  # fmt: skip
    return folder / "train.csv", folder / "test.csv"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, help="another checkout's src folder")
    parser.add_argument("--repeat", type=int, default=5)
    options = parser.parse_args()
    sources = {"after": SRC} | ({"before": options.before.resolve()} if options.before else {})
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        train, test = corpus(workdir)
        plain = workdir / "plain.py"
        plain.write_text(PLAIN, encoding="utf-8")
        build = ["build", "maze", "--train", str(train), "--test", str(test), *SMALL_BUILD]
        cases = {
            "--version": (["--version"], None),
            "build maze --help": (["build", "maze", "--help"], None),
            "build maze (3,000 rows)": (
                [*build, "--overwrite", "--out"],
                [sys.executable, str(plain), str(train), str(test)],
            ),
        }
        print(f"median of {options.repeat} interleaved rounds; {load()}")
        floor = medians([lambda: [sys.executable, "-c", "import pandas"]], options.repeat)[0][0]
        print(f"plain floor: python -c 'import pandas' {floor:.3f} s")
        print(f"{'command':<26}" + "".join(f"{name + ' s':>10}{name + ' ms imp':>15}" for name in sources)
              + f"{'plain s':>9}{'after/before':>14}{'after/plain':>13}")  # fmt: skip
        for case, (args, plain_command) in cases.items():
            commands = [_command(src, args, workdir / name) for name, src in sources.items()]
            if plain_command:
                out = workdir / "plain-out"
                out.mkdir(exist_ok=True)
                commands.append(lambda c=plain_command, o=out: [*c, str(o), "single-term"])
            walls = [wall for wall, _ in medians(commands, options.repeat)]
            imports = [import_ms(command()) for command in commands[: len(sources)]]
            row = "".join(f"{w:>10.3f}{i:>15.1f}" for w, i in zip(walls, imports, strict=False))
            plain_s = walls[len(sources)] if plain_command else None
            row += f"{plain_s:>9.3f}" if plain_s else f"{'—':>9}"
            row += f"{walls[0] / walls[1]:>14.2f}" if "before" in sources else f"{'—':>14}"
            row += f"{walls[0] / plain_s:>13.2f}" if plain_s else f"{'—':>13}"
            print(f"{case:<26}{row}")
    print(load())


def _command(src: Path, args: list[str], out: Path):  # type: ignore[no-untyped-def]
    """The case's command for ``src``; a build writes to its own folder (``--out`` comes last)."""
    return lambda: tool(src, *args, *([str(out)] if args[-1] == "--out" else []))


if __name__ == "__main__":
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    main()
