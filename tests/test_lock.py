"""The lock (constraints.txt) holds every package pyproject.toml asks for, at a version its range
admits, and CI and the README install through it. A failure here means a dependency changed
without a new lock: run ``python tools/lock.py`` (needs ``pip install uv``) and commit
constraints.txt."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tools.lock import pinned

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
LOCKED = pinned((ROOT / "constraints.txt").read_text(encoding="utf-8"))
# A lock line's marker only splits a package by Python version or platform; these tests read the
# line that applies to Python 3.11 on Linux, the CI machine.
PYTHON_311_LINUX = {
    "python_full_version": "3.11.7",
    "python_version": "3.11",
    "sys_platform": "linux",
}


def locked_version(name: str) -> str | None:
    """The locked version of ``name`` that applies on Python 3.11 and Linux, if any."""
    from packaging.markers import Marker

    for key, version in LOCKED.items():
        locked_name, _, marker = key.partition(" ;")
        if canonicalize_name(locked_name) != canonicalize_name(name):
            continue
        if not marker.strip() or Marker(marker.strip()).evaluate(PYTHON_311_LINUX):
            return version
    return None


def requirements_of_test_extra() -> list[Requirement]:
    """Every requirement the ``test`` extra installs: its own, the core's, and those of the
    extras it names (``shortcutlab[hf,torch,...]``)."""
    extras, seen, found = ["test"], set(), list(map(Requirement, PROJECT["dependencies"]))
    while extras:
        extra = extras.pop()
        seen.add(extra)
        for line in PROJECT["optional-dependencies"][extra]:
            requirement = Requirement(line)
            if requirement.name == PROJECT["name"]:
                extras += [name for name in requirement.extras if name not in seen]
            else:
                found.append(requirement)
    return found


def test_every_requirement_is_locked_at_a_version_its_range_admits():
    stale = []
    for requirement in requirements_of_test_extra():
        if requirement.marker is not None and not requirement.marker.evaluate(PYTHON_311_LINUX):
            continue
        version = locked_version(requirement.name)
        if version is None or not requirement.specifier.contains(version, prereleases=True):
            stale.append(f"{requirement} (locked: {version})")
    assert stale == [], "constraints.txt is stale: run `python tools/lock.py` and commit it"


def test_the_lock_keeps_the_pins_of_constraints_in():
    pins = [
        Requirement(line)
        for line in (ROOT / "constraints.in").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert pins, "constraints.in pins the PyTorch CPU wheel"
    assert [str(pin) for pin in pins if locked_version(pin.name) not in pin.specifier] == []


def test_the_readme_installs_the_test_extra_through_the_lock():
    """.ci/run runs the README's test command (tests/docs/test_readme.py checks that)."""
    install = re.compile(r"pip install -e \"\.\[test\]\" -c constraints\.txt")
    assert install.search((ROOT / "README.md").read_text(encoding="utf-8"))


def test_the_lock_is_read_line_by_line():
    lock = "a==1.0\n    # via b\nnumpy==2.4.6 ; python_full_version < '3.12'\nnumpy==2.5.5 ; x\n"
    assert pinned(lock) == {
        "a": "1.0",
        "numpy ; python_full_version < '3.12'": "2.4.6",
        "numpy ; x": "2.5.5",
    }
