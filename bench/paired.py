"""Whole processes timed side by side: the tool, and what a user would run instead, interleaved.

Every speed benchmark in ``bench/`` times its two sides through :func:`compare`: one untimed run of
each first (disk and bytecode caches), then ``pairs`` rounds whose order alternates (A B, B A, ...),
so load from other work on the machine falls on both alike. Each run is its own process; its wall
seconds and peak RSS (``os.wait4``, in a small launcher) are kept. The medians and their ratio are printed, and
:func:`write_results` (``--save``) stores every run in ``bench/results/NAME.json``, from which
``tools/bench_table.py`` regenerates the tables of ``docs/benchmarks.md`` (no figure is typed).
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"
ROOT = Path(__file__).resolve().parents[1]
#: Source trees of git revisions a bench compares with (--before 003e8d5), exported here once.
TREES = ROOT / "bench" / "out" / "trees"
MIN_PAIRS = 3  # the project's rule: a figure is a median of at least three interleaved pairs


@dataclass(frozen=True)
class Side:
    """One side of a comparison: a whole process and what to do, untimed, before each run."""

    label: str
    command: Callable[[], Sequence[str]]
    env: dict[str, str] | None = None
    cwd: Path | None = None
    prepare: Callable[[], object] | None = None  # e.g. empty the output folder


@dataclass
class Comparison:
    """Every measured run of a step's two sides, and the load average before and after.

    ``unit`` is "s" (wall seconds of a whole process: lower is better) unless a bench measures a
    rate such as "answers/s" (higher is better); ``time_ratio`` is the tool's time over the
    alternative's for the same work either way (< 1: the tool is faster).
    """

    step: str
    tool: str
    alternative: str
    unit: str = "s"
    tool_values: list[float] = field(default_factory=list)
    alternative_values: list[float] = field(default_factory=list)
    tool_peak_mib: list[float] = field(default_factory=list)
    alternative_peak_mib: list[float] = field(default_factory=list)
    tool_cpu_s: list[float] = field(default_factory=list)
    alternative_cpu_s: list[float] = field(default_factory=list)
    load: list[float] = field(default_factory=list)
    note: str = ""

    def add(
        self, *, is_tool: bool, value: float, peak_mib: float, cpu: float | None = None
    ) -> None:
        (self.tool_values if is_tool else self.alternative_values).append(round(value, 3))
        (self.tool_peak_mib if is_tool else self.alternative_peak_mib).append(round(peak_mib, 1))
        if cpu is not None:
            (self.tool_cpu_s if is_tool else self.alternative_cpu_s).append(round(cpu, 3))

    @property
    def time_ratio(self) -> float:
        return time_ratio(self.unit, self.tool_values, self.alternative_values)


def time_ratio(unit: str, tool: list[float], alternative: list[float]) -> float:
    """The tool's time over the alternative's for the same work, from the two sides' medians."""
    ratio = statistics.median(tool) / statistics.median(alternative)
    return 1 / ratio if unit.endswith("/s") else ratio  # a rate: more per second is less time


# Linux keeps a process's peak RSS across exec, so a child started straight from this (large)
# process would report at least this process's size. A small launcher forks the command from its
# own small memory and reports the command's wall seconds, peak RSS and exit code.
_LAUNCHER = """
import os, subprocess, sys, time
started = time.perf_counter()
child = subprocess.Popen(sys.argv[2:])
_, status, usage = os.wait4(child.pid, 0)
seconds = time.perf_counter() - started
with open(sys.argv[1], "w") as out:
    cpu = usage.ru_utime + usage.ru_stime
    out.write(f"{seconds} {usage.ru_maxrss} {os.waitstatus_to_exitcode(status)} {cpu}")
"""


def run_process(side: Side) -> tuple[float, float, float]:
    """Wall seconds, peak RSS (MiB) and CPU seconds (user + system: what other load on the
    machine changes least) of one run of ``side``; a failed run stops the bench."""
    if side.prepare is not None:
        side.prepare()
    env = None if side.env is None else os.environ | side.env
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "measured"
        launcher = [sys.executable, "-c", _LAUNCHER, str(report), *side.command()]
        ran = subprocess.run(
            launcher, env=env, cwd=side.cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        measured = report.read_text().split() if report.exists() else ["0", "0", "1", "0"]
    seconds, peak_kib, code, cpu = measured
    if ran.returncode != 0 or int(code) != 0:
        errors = ran.stderr.decode(errors="replace")
        raise SystemExit(f"{side.label} failed:\n{errors[-2000:]}")
    return float(seconds), int(peak_kib) / 1024, float(cpu)  # Linux reports kilobytes


def compare(step: str, tool: Side, alternative: Side, *, pairs: int, note: str = "") -> Comparison:
    """Time ``tool`` and ``alternative`` in ``pairs`` interleaved rounds, print and return them."""
    return compare_all(step, tool, [alternative], pairs=pairs, note=note)[0]


def compare_all(
    step: str, tool: Side, alternatives: Sequence[Side], *, pairs: int, note: str = ""
) -> list[Comparison]:
    """The tool and several alternatives (a plain script, the tool before a change) in the same
    rounds, the order reversed every other round; one comparison per alternative, all sharing
    the tool's runs."""
    if pairs < MIN_PAIRS:
        raise SystemExit(f"--pairs must be at least {MIN_PAIRS} (medians of interleaved pairs)")
    results = [Comparison(step, tool.label, other.label, note=note) for other in alternatives]
    load_before = load_now()
    sides = [tool, *alternatives]
    for side in sides:  # untimed: caches warm for all alike
        run_process(side)
    for pair in range(pairs):
        for index in range(len(sides))[:: 1 if pair % 2 == 0 else -1]:
            seconds, peak, cpu = run_process(sides[index])
            for number, result in enumerate(results):
                if index == 0 or index == number + 1:
                    result.add(is_tool=index == 0, value=seconds, peak_mib=peak, cpu=cpu)
    for result in results:
        result.load = [load_before, load_now()]
        print(describe(result), flush=True)
    return results


def source_tree(value: str) -> Path:
    """A ``--before``/``--baseline``/``--src`` value as a source folder: a folder as it is, or a git
    revision of this repository (``003e8d5``, ``main``) whose ``src`` is exported once into
    ``bench/out/trees/`` (git-ignored), so a stored command reruns in any clone."""
    if Path(value).is_dir():
        return Path(value)
    found = subprocess.run(
        [
            "git",
            "-C",
            str(ROOT),
            "rev-parse",
            "--verify",
            "--quiet",
            "--short",
            f"{value}^{{commit}}",
        ],
        capture_output=True,
        text=True,
    )
    if found.returncode != 0:
        raise SystemExit(f"{value!r} is neither a source folder nor a git revision of {ROOT}")
    tree = TREES / found.stdout.strip()
    if not (tree / "src").is_dir():
        tree.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", found.stdout.strip(), "src"],
            capture_output=True,
            check=True,
        )
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive.stdout, check=True)
    return tree / "src"


def tree_name(src: Path | str) -> str:
    """A source tree as a reader can find it again: its git commit, else its folder's name."""
    folder = Path(src).resolve()
    if folder.parent.parent == TREES.resolve():  # exported by source_tree: named by its commit
        return f"commit {folder.parent.name}"
    found = subprocess.run(
        ["git", "-C", str(folder), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    )
    return f"commit {found.stdout.strip()}" if found.returncode == 0 else folder.parent.name


def load_now() -> float:
    """The 1-minute load average: what else the machine was doing."""
    return round(os.getloadavg()[0], 2)


def describe(result: Comparison) -> str:
    """One line per comparison: medians, the ratio in words and the load it ran at."""
    tool = statistics.median(result.tool_values)
    other = statistics.median(result.alternative_values)
    unit = result.unit
    return (
        f"{result.step}: {result.tool} {tool:.2f} {unit}, {result.alternative} {other:.2f} {unit} "
        f"-> the tool is {speed_words(result.time_ratio)}; CPU {cpu_words(result)}; "
        f"peak RSS {peak_words(result)}; "
        f"{len(result.tool_values)} pairs, load {result.load[0]:.1f}-{result.load[-1]:.1f}"
    )


def speed_words(ratio: float) -> str:
    """Tool-over-alternative time as words: 0.5 -> '2.00× faster', 1.3 -> '1.30× slower'."""
    return f"{1 / ratio:.2f}× faster" if ratio <= 1 else f"{ratio:.2f}× slower"


def cpu_words(result: Comparison | dict) -> str:
    """Median CPU seconds of both sides; '—' where a bench measured none."""
    tool, other = (
        (result.tool_cpu_s, result.alternative_cpu_s)
        if isinstance(result, Comparison)
        else (result.get("tool_cpu_s", []), result.get("alternative_cpu_s", []))
    )
    if not tool or not other:
        return "—"
    return f"{statistics.median(tool):.2f} / {statistics.median(other):.2f} s"


def peak_words(result: Comparison | dict) -> str:
    """Median peak RSS of both sides and their ratio; '—' where a bench measured none."""
    tool, other = (
        (result.tool_peak_mib, result.alternative_peak_mib)
        if isinstance(result, Comparison)
        else (result["tool_peak_mib"], result["alternative_peak_mib"])
    )
    if not tool or not other:
        return "—"
    tool_mib, other_mib = statistics.median(tool), statistics.median(other)
    return f"{tool_mib:.0f} / {other_mib:.0f} MiB ({tool_mib / other_mib:.2f}×)"


def write_results(bench: str, comparisons: list[Comparison], *, out: Path | None = None) -> Path:
    """Store every run of this bench (the command that printed them included) as JSON."""
    path = out or RESULTS / f"{bench}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    record = {
        "bench": bench,
        "command": " ".join(["python", *_script_argv()]),  # as typed, less --save
        "when": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version()},
        "comparisons": [asdict(c) for c in comparisons],
    }
    path.write_text(json.dumps(record, indent=1) + "\n")
    print(f"wrote {path}")
    return path


def _script_argv() -> list[str]:
    """The bench command as a user types it from the repository root."""
    script = Path(sys.argv[0])
    if script.is_absolute():
        try:
            script = script.relative_to(Path.cwd())
        except ValueError:
            script = Path("bench") / script.name
    return [str(script), *[a for a in sys.argv[1:] if a != "--save"]]


def add_options(parser) -> None:
    """The options every paired bench takes: the number of pairs, and --save."""
    parser.add_argument("--pairs", type=int, default=MIN_PAIRS, help="interleaved pairs (>= 3)")
    parser.add_argument(
        "--save",
        action="store_true",
        help="store the runs in bench/results/ (then: python tools/bench_table.py)",
    )
