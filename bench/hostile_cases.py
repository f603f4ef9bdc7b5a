"""Hostile inputs against the whole CLI: does every command keep the bad-input contract?

Each case runs ``shortcutlab`` as a separate process in a fresh folder, the way an adversarial user
would, and holds when the command either refuses with exit code 2, exactly one ``Error:`` line on
stderr, no traceback and nothing written anywhere under the case's folder, or (for inputs that are
valid) succeeds and writes what a careful tool writes. Run it as root on Linux: some cases mount a
2 MB tmpfs or drop the file-permission override (``capsh``); those are marked skipped elsewhere.

    python bench/hostile_cases.py                 # every case; prints one line per case and totals
    python bench/hostile_cases.py --only labels   # one class
    python bench/hostile_cases.py --list

The cases live in the other ``hostile_*.py`` modules beside this one, by class: ``hostile_inputs.py``
and ``hostile_files.py`` hold issue 21's sections, ``hostile_i34_*.py`` issue 34's classes A-N.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

TIMEOUT = 60


@dataclass
class Outcome:
    rc: int
    stdout: str
    stderr: str
    seconds: float


class Skip(Exception):
    """The machine cannot stage this case (not root, no tmpfs...)."""


@dataclass
class Case:
    """One hostile case: ``base`` is a fresh folder; ``work`` (inside it) is the command's cwd."""

    base: Path
    corpus: Path
    notes: list[str] = field(default_factory=list)

    @property
    def work(self) -> Path:
        return self.base / "w"

    def cli(self, *args: object, prefix: tuple[str, ...] = (), timeout: float = TIMEOUT) -> Outcome:
        command = [*prefix, sys.executable, "-m", "shortcutlab", *(str(a) for a in args)]
        started = time.perf_counter()
        try:
            done = subprocess.run(
                command,
                cwd=self.work,
                capture_output=True,
                text=True,
                errors="replace",
                timeout=timeout,
                stdin=subprocess.DEVNULL,
            )
        except subprocess.TimeoutExpired as expired:
            return Outcome(-1, _text(expired.stdout), f"no answer in {timeout:g} s", timeout)
        return Outcome(done.returncode, done.stdout, done.stderr, time.perf_counter() - started)

    def popen(self, *args: object) -> subprocess.Popen:
        return subprocess.Popen(
            [sys.executable, "-m", "shortcutlab", *(str(a) for a in args)],
            cwd=self.work,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            stdin=subprocess.DEVNULL,
        )

    def refused(self, *args: object, **kwargs: object) -> str | None:
        """None when the command refuses by the contract and writes nothing; else what broke."""
        before = tree_state(self.base)
        outcome = self.cli(*args, **kwargs)  # type: ignore[arg-type]
        return one_line_refusal(outcome) or changed(before, tree_state(self.base))

    def succeeded(self, *args: object, **kwargs: object) -> tuple[Outcome, str | None]:
        outcome = self.cli(*args, **kwargs)  # type: ignore[arg-type]
        if "Traceback" in outcome.stderr:
            return outcome, "traceback: " + last_line(outcome.stderr)
        if outcome.rc != 0:
            return outcome, f"exit {outcome.rc}: {last_line(outcome.stderr)}"
        return outcome, None


def _text(raw: bytes | str | None) -> str:
    return raw.decode(errors="replace") if isinstance(raw, bytes) else (raw or "")


def last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1][:160] if lines else "(nothing on stderr)"


def one_line_refusal(outcome: Outcome) -> str | None:
    if outcome.rc == -1:
        return outcome.stderr
    if "Traceback" in outcome.stderr:
        return "traceback: " + last_line(outcome.stderr)
    if outcome.rc != 2:
        return f"exit {outcome.rc}: {last_line(outcome.stderr or outcome.stdout)}"
    lines = [
        line
        for line in outcome.stderr.splitlines()
        if line.strip() and not line.startswith("Warning:")
    ]
    if len(lines) != 1 or not lines[0].startswith("Error: "):
        return f"{len(lines)} lines on stderr: {outcome.stderr.strip()[:160]!r}"
    if "\x00" in outcome.stderr:
        return "a NUL inside the message"
    if len(lines[0]) > 600:
        return f"a message of {len(lines[0])} characters"
    return None


def tree_state(root: Path) -> dict[str, bytes | None]:
    state: dict[str, bytes | None] = {}
    for path in sorted(root.rglob("*")):
        key = str(path.relative_to(root))
        if path.is_symlink() or path.is_dir():
            state[key] = None
        else:
            try:
                state[key] = path.read_bytes()
            except OSError:
                state[key] = b"<unreadable>"
    return state


def changed(before: dict[str, bytes | None], after: dict[str, bytes | None]) -> str | None:
    absent = object()
    paths = sorted(
        p for p in before.keys() | after.keys() if before.get(p, absent) != after.get(p, absent)
    )
    return f"wrote or changed: {', '.join(paths[:4])}" if paths else None


def make_corpus(folder: Path) -> Path:
    """The embedded corpus, generated once, cut to 600 train and 300 test rows of text and label."""
    import pandas as pd

    full = folder / "full"
    subprocess.run(
        [sys.executable, "-m", "shortcutlab", "generate", "--out", str(full)],
        check=True,
        capture_output=True,
    )
    corpus = folder / "corpus"
    corpus.mkdir()
    for split, rows in (("train", 600), ("test", 300)):
        table = pd.read_csv(full / f"{split}.csv")[["text", "label"]].head(rows)
        table.to_csv(corpus / f"{split}.csv", index=False)
    return corpus


def main() -> None:
    import importlib

    import hostile_inputs

    # Each case runs in a folder of its own: PYTHONPATH=src must still name this checkout's sources
    # there, not fall back to whichever tree the installed package points at.
    if os.environ.get("PYTHONPATH"):
        parts = os.environ["PYTHONPATH"].split(os.pathsep)
        os.environ["PYTHONPATH"] = os.pathsep.join(str(Path(p).resolve()) for p in parts if p)

    # Every hostile_*.py beside this file registers its cases in hostile_inputs.CASES on import.
    for module in sorted(Path(__file__).parent.glob("hostile_*.py")):
        if module.stem not in ("hostile_cases", "hostile_inputs"):
            importlib.import_module(module.stem)

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", action="append", help="a class name (repeatable)")
    parser.add_argument("--list", action="store_true")
    parser.add_argument("-k", help="run the cases whose name contains this")
    options = parser.parse_args()
    cases = [
        (group, name, run)
        for group, name, run in hostile_inputs.CASES
        if (not options.only or group in options.only) and (not options.k or options.k in name)
    ]
    if options.list:
        for group, name, _ in cases:
            print(f"{group:10} {name}")
        return
    results: Counter[tuple[str, str]] = Counter()
    with tempfile.TemporaryDirectory(prefix="hostile-") as scratch:
        corpus = make_corpus(Path(scratch))
        for group, name, run in cases:
            base = Path(tempfile.mkdtemp(dir=scratch, prefix="case-"))
            case = Case(base=base, corpus=corpus)
            case.work.mkdir()
            for split in ("train", "test"):
                shutil.copy(corpus / f"{split}.csv", case.work / f"{split}.csv")
            try:
                broke = run(case)
                verdict = "held" if broke is None else "BROKE"
            except Skip as reason:
                broke, verdict = str(reason), "skipped"
            finally:
                subprocess.run(["chmod", "-R", "u+rwX", str(base)], check=False)
                shutil.rmtree(base, ignore_errors=True)
            results[(group, verdict)] += 1
            print(f"{verdict:7} {group:10} {name}" + (f" — {broke}" if broke else ""), flush=True)
    groups = sorted({group for group, _ in results})
    print()
    for group in groups:
        print(
            f"{group:10} held {results[(group, 'held')]:3}  broke {results[(group, 'BROKE')]:3}"
            f"  skipped {results[(group, 'skipped')]:3}"
        )
    held = sum(n for (_, v), n in results.items() if v == "held")
    tried = sum(n for (_, v), n in results.items() if v != "skipped")
    print(f"\n{held} of {tried} cases held ({os.uname().sysname}, uid {os.getuid()})")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parent))
    # Cases run in their own folders: a relative PYTHONPATH=src would miss this checkout's sources
    # there and test the installed package instead.
    if os.environ.get("PYTHONPATH"):
        paths = os.environ["PYTHONPATH"].split(os.pathsep)
        os.environ["PYTHONPATH"] = os.pathsep.join(os.path.abspath(p) for p in paths if p)
    main()
