"""The lock file: every package the test extra installs, at one version, for every platform.

    pip install uv                       # once; uv resolves for every platform and Python at once
    python tools/lock.py                 # re-lock after changing a dependency in pyproject.toml
    python tools/lock.py --upgrade       # move every package to its newest release that fits
    python tools/lock.py --latest        # print what is newer than the lock; writes nothing

``constraints.txt`` is what ``uv pip compile`` makes of pyproject.toml's ``test`` extra (which
holds every other extra) and ``constraints.in`` (pins the ranges leave open, such as the PyTorch
CPU wheel the README installs first). The README's test command and ``.ci/run`` install with
``-c constraints.txt``, so the figures the tests compare were produced by the versions they run;
the user install (``pip install -e .``) stays unpinned. Without ``--upgrade``, packages keep their
locked version where it still fits, so a re-lock moves only what the change needs.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOCK = ROOT / "constraints.txt"
PINS = ROOT / "constraints.in"
# The oldest Python the project supports; --universal then resolves for it and every newer one.
PYTHON = "3.11"


def compile_command(output: Path, *, upgrade: bool) -> list[str]:
    """The ``uv pip compile`` command that writes the lock to ``output`` (paths relative to ROOT,
    so the header uv writes into the lock is the same on every machine)."""
    uv = shutil.which("uv")
    if uv is None:
        sys.exit("tools/lock.py needs uv: pip install uv")
    command = [uv, "pip", "compile", "pyproject.toml", PINS.name, "--extra", "test"]
    where = output.relative_to(ROOT) if output.is_relative_to(ROOT) else output
    command += ["--universal", "--python-version", PYTHON, "--quiet", "-o", str(where)]
    return [*command, "--upgrade"] if upgrade else command


def pinned(lock_text: str) -> dict[str, str]:
    """``{"name ; marker": "version"}`` of a lock file's ``==`` lines."""
    pins = {}
    for line in lock_text.splitlines():
        requirement = line.split("#", 1)[0].strip()
        if "==" in requirement:
            name, _, rest = requirement.partition("==")
            version, _, marker = rest.partition(";")
            pins[f"{name.strip()} ;{marker}".rstrip(" ;")] = version.strip()
    return pins


def newer_than_lock() -> list[str]:
    """One line per locked package whose newest fitting release differs from the lock."""
    with tempfile.TemporaryDirectory() as scratch:
        latest = Path(scratch) / "latest.txt"
        shutil.copy(LOCK, latest)
        subprocess.run(compile_command(latest, upgrade=True), cwd=ROOT, check=True)
        now, then = pinned(LOCK.read_text()), pinned(latest.read_text())
    return [
        f"{name}: {now.get(name, '(not locked)')} -> {then.get(name, '(no longer needed)')}"
        for name in sorted(now.keys() | then.keys())
        if now.get(name) != then.get(name)
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    choice = parser.add_mutually_exclusive_group()
    choice.add_argument(
        "--upgrade", action="store_true", help="every package to its newest release"
    )
    choice.add_argument("--latest", action="store_true", help="list what is newer; write nothing")
    options = parser.parse_args()
    if options.latest:
        lines = newer_than_lock()
        print("\n".join(lines) if lines else "The lock holds the newest release of every package.")
        return
    subprocess.run(compile_command(LOCK, upgrade=options.upgrade), cwd=ROOT, check=True)
    print(f"Wrote {LOCK.relative_to(ROOT)}: {len(pinned(LOCK.read_text()))} pins")


if __name__ == "__main__":
    main()
