"""An existing Ray cluster: a head and a worker started with ``ray start`` on 127.0.0.1, a grid run
through ``shortcutlab run --executor ray --address``, and a driver the cluster refuses.

The cluster runs in a loopback-only network namespace (see tests/engine/ray_cluster.py): Ray binds
to every interface and advertises the machine's interface address, so outside one it cannot be
held to loopback. Where no such namespace can be made, the test skips and says why.
"""

import contextlib
import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import yaml

from shortcutlab.families import parse_spec, run_experiment
from tests.engine.ray_cluster import LOOPBACK, group_members, stop_groups
from tests.engine.test_ray_connect import SMALL, assert_same_results

ROOT = Path(__file__).resolve().parents[2]
SCENARIO_SECONDS = 240
# A user and network namespace with nothing but a loopback interface (brought up first).
LOOPBACK_ONLY = ["unshare", "--user", "--map-root-user", "--net"]
LOOPBACK_UP = "ip link set lo up"


def loopback_only_namespace() -> str | None:
    """None when a loopback-only network namespace can be made here, else why not."""
    try:
        made = subprocess.run(
            [*LOOPBACK_ONLY, "sh", "-c", LOOPBACK_UP], capture_output=True, text=True, timeout=30
        )
    except OSError as exc:
        return f"{exc.strerror}: {exc.filename}"
    return None if made.returncode == 0 else made.stderr.strip() or f"exit {made.returncode}"


@contextlib.contextmanager
def scenario_running(folder: Path) -> Iterator[Callable[[], dict]]:
    """Start tests/engine/ray_cluster.py in the namespace; yields a function that waits for its
    outcome. The cluster's process groups are stopped however the test ends."""
    scenario = [sys.executable, "-m", "tests.engine.ray_cluster", str(folder)]
    command = [*LOOPBACK_ONLY, "sh", "-c", f'{LOOPBACK_UP} && exec "$@"', "sh", *scenario]
    env = dict(os.environ)
    if env.get("PYTHONPATH"):  # a checkout run with PYTHONPATH=src
        parts = env["PYTHONPATH"].split(os.pathsep)
        env["PYTHONPATH"] = os.pathsep.join(str(Path(part).resolve()) for part in parts if part)
    process = subprocess.Popen(command, cwd=ROOT, env=env, start_new_session=True)

    def outcome() -> dict:
        process.wait(timeout=SCENARIO_SECONDS)
        return json.loads((folder / "outcome.json").read_text())

    try:
        yield outcome
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        stop_groups(cluster_groups(folder))


def cluster_groups(folder: Path) -> list[int]:
    """The process groups of the cluster's nodes, as the scenario wrote them down."""
    groups_file = folder / "groups.json"
    return json.loads(groups_file.read_text()) if groups_file.exists() else []


@pytest.mark.slow
def test_a_grid_on_an_existing_cluster_matches_the_local_executor(tmp_path):
    pytest.importorskip("ray")
    why_not = loopback_only_namespace()
    if why_not:
        pytest.skip(
            "Ray listens on every interface and advertises this machine's interface address in "
            f"place of 127.0.0.1, and no loopback-only network namespace can be made here "
            f"({why_not}); "
            "the test does not reach for another interface"
        )
    (tmp_path / "spec.yaml").write_text(yaml.safe_dump(SMALL))
    runs = {"spec": tmp_path / "spec.yaml", "out": tmp_path / "ray", "refused_out": tmp_path / "no"}
    (tmp_path / "scenario.json").write_text(json.dumps({k: str(v) for k, v in runs.items()}))
    with scenario_running(tmp_path) as scenario_outcome:
        run_experiment(parse_spec(SMALL), tmp_path / "local")  # meanwhile, on this machine
        outcome = scenario_outcome()
    address = outcome["address"]
    assert outcome["head"]["code"] == 0, outcome["head"]["out"]
    if outcome["advertised"] != address:
        pytest.skip(
            f"Ray advertises {outcome['advertised']} for a head started with --node-ip-address "
            f"{LOOPBACK}, even in a loopback-only network namespace"
        )
    assert outcome["worker"]["code"] == 0, outcome["worker"]["out"]
    for node in ("head", "worker"):  # the address each node reports for itself
        assert f"Local node IP: {LOOPBACK}" in outcome[node]["out"], outcome[node]["out"]
    grid = outcome["grid"]
    assert grid["code"] == 0, grid["err"]
    assert_same_results(tmp_path / "ray", tmp_path / "local")

    refused = outcome["refused"]  # a driver without the cluster's token
    assert refused["code"] == 2 and "Traceback" not in refused["err"]
    assert refused["err"].rstrip().splitlines()[-1] == (
        f"Error: The Ray cluster at {address} refused this driver's authentication token. Set "
        "RAY_AUTH_MODE=token and the cluster's token in RAY_AUTH_TOKEN (or a file named by "
        "RAY_AUTH_TOKEN_PATH); 'ray get-auth-token' on the head prints it."
    )
    assert not (tmp_path / "no").exists()
    assert outcome["left"] == []  # every process of the cluster stopped, by its group
    assert len(cluster_groups(tmp_path)) == 2 and not any(
        map(group_members, cluster_groups(tmp_path))
    )
