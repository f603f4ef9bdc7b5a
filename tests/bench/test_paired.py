"""bench/paired.py times real processes in alternating order, and tools/bench_table.py renders what
it stored; the docs' tables are those renderings of the committed runs."""

from __future__ import annotations

import importlib
import json
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def paired(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "bench"))
    return importlib.import_module("paired")


def _side(paired, label: str, log: Path, work: int):
    """A process that appends its label to ``log``, then spins ``work`` iterations."""
    code = f"open({str(log)!r}, 'a').write({label!r} + ' '); sum(range({work}))"
    return paired.Side(label, lambda: [sys.executable, "-c", code])


def test_runs_alternate_and_the_printed_medians_are_those_of_the_stored_runs(
    paired, tmp_path, capsys
):
    log = tmp_path / "order.txt"
    slow, fast = _side(paired, "slow", log, 1_000_000), _side(paired, "fast", log, 10)
    result = paired.compare("spin", slow, fast, pairs=4)
    # one untimed run of each, then pairs whose order alternates (what the processes wrote)
    assert log.read_text().split() == "slow fast slow fast fast slow slow fast fast slow".split()
    saved = paired.write_results("spin", [result], out=tmp_path / "spin.json")
    record = json.loads(saved.read_text())
    (stored,) = record["comparisons"]
    assert len(stored["tool_values"]) == len(stored["alternative_values"]) == 4
    assert all(value > 0 for value in stored["tool_peak_mib"] + stored["alternative_peak_mib"])
    printed = capsys.readouterr().out
    tool, other = (
        statistics.median(stored["tool_values"]),
        statistics.median(stored["alternative_values"]),
    )
    assert f"slow {tool:.2f} s, fast {other:.2f} s" in printed
    assert f"{tool / other:.2f}× slower" in printed  # it spins; the other does not
    assert "4 pairs" in printed


def test_the_peak_memory_is_the_commands_own_not_the_bench_process(paired, tmp_path):
    ballast = bytearray(400 * 2**20)  # this process holds 400 MiB; the timed command does not
    ballast[::4096] = b"x" * len(ballast[::4096])  # touch every page so it counts as resident
    small = _side(paired, "small", tmp_path / "log", 10)
    seconds, peak_mib, _ = paired.run_process(small)
    assert 0 < peak_mib < 100, peak_mib
    del ballast


def test_fewer_than_three_pairs_is_refused(paired, tmp_path):
    side = _side(paired, "a", tmp_path / "log", 1)
    with pytest.raises(SystemExit, match="at least 3"):
        paired.compare("x", side, side, pairs=2)


def test_a_rate_is_turned_into_time_for_the_same_work(paired):
    assert paired.time_ratio("answers/s", [200.0], [100.0]) == 0.5  # twice the rate: half the time
    assert paired.speed_words(0.5) == "2.00× faster"
    assert paired.speed_words(1.25) == "1.25× slower"


def test_the_table_renders_the_stored_runs(tmp_path):
    record = {
        "bench": "toy",
        "command": "python bench/toy.py --pairs 3",
        "when": "2026-11-26 05:00 UTC",
        "machine": {"cpus": 2, "python": "3.11.9"},
        "comparisons": [
            {
                "step": "build",
                "tool": "shortcutlab build",
                "alternative": "plain script",
                "unit": "s",
                "tool_values": [1.0, 3.0, 2.0],
                "alternative_values": [4.0, 4.5, 3.9],
                "tool_peak_mib": [100.0, 100.0, 100.0],
                "alternative_peak_mib": [200.0, 200.0, 200.0],
                "load": [1.5, 2.5],
                "note": "",
            }
        ],
    }
    (tmp_path / "toy.json").write_text(json.dumps(record))
    page = "intro\n<!-- bench-table: toy -->\nold figures\n<!-- /bench-table -->\nend\n"
    out = subprocess.run(
        [sys.executable, "-c", _RENDER, str(tmp_path), page],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    row = "| build | shortcutlab build | plain script | 2.00 s | 4.00 s | 2.00× faster | — |"
    assert row + " 100 / 200 MiB (0.50×) | 3 | 1.5–2.5 |" in out
    assert "old figures" not in out and out.startswith("intro\n") and out.endswith("end\n")
    assert "- `python bench/toy.py --pairs 3` (2026-11-26 05:00 UTC, 2 CPUs, Python 3.11.9)" in out


_RENDER = f"""
import sys; sys.path.insert(0, {str(ROOT / "tools")!r})
from pathlib import Path
import bench_table
sys.stdout.write(bench_table.regenerate(sys.argv[2], bench_table.load_records(Path(sys.argv[1]))))
"""


def test_the_docs_tables_are_regenerated_from_the_committed_runs():
    check = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "bench_table.py"), "--check"],
        capture_output=True,
        text=True,
    )
    assert check.returncode == 0, check.stderr
