"""A two-node Ray cluster on 127.0.0.1, started with ``ray start`` the way a user starts one, and a
grid run against it through ``shortcutlab run --address``.

Run as ``python -m tests.engine.ray_cluster FOLDER`` inside a loopback-only network namespace
(``unshare -rn``), since Ray binds its servers to every interface and advertises the machine's
interface address for 127.0.0.1: in the namespace there is no other interface to reach. FOLDER
holds ``scenario.json`` (the spec, the run folder); the outcome goes to ``outcome.json``: the
addresses Ray reported, each command's exit code and output, and any process left behind.

Every Ray process of the cluster runs in one of two process groups (head, worker), which are
stopped by group id, never with ``ray stop`` (that would stop other sessions' Ray too). The
cluster asks for token authentication, with a token of its own, in a Ray temp folder of its own.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LOOPBACK = "127.0.0.1"
STOP_GRACE_SECONDS = 3


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        return probe.getsockname()[1]


def ray_command() -> str:
    return str(Path(sys.executable).with_name("ray"))


def group_members(group: int) -> list[str]:
    """``PID STATE COMMAND`` of each live (not zombie) process in process group ``group``."""
    members = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:  # the process ended meanwhile
            continue
        name, fields = text[text.index("(") : text.rindex(")") + 1], text[text.rindex(")") + 2 :]
        state, _, pgrp = fields.split()[:3]
        if int(pgrp) == group and state != "Z":
            members.append(f"{stat.parent.name} {state} {name}")
    return members


def stop_groups(groups: list[int]) -> list[str]:
    """SIGTERM every group, SIGKILL what is left after the grace period; what still runs."""
    for signal_number in (signal.SIGTERM, signal.SIGKILL):
        for group in groups:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(group, signal_number)
        deadline = time.monotonic() + STOP_GRACE_SECONDS
        while any(map(group_members, groups)) and time.monotonic() < deadline:
            time.sleep(0.2)
    return [member for group in groups for member in group_members(group)]


def run_side_by_side(commands: dict[str, tuple[list[str], dict]], folder: Path) -> dict:
    """Run ``{name: (command, env)}`` at once; each one's exit code, output and seconds (the
    output goes through files in ``folder``: a full pipe would stall a command)."""
    started, processes = time.monotonic(), {}
    for name, (command, env) in commands.items():
        with open(folder / f"{name}.out", "w") as out, open(folder / f"{name}.err", "w") as err:
            processes[name] = subprocess.Popen(command, env=env, stdout=out, stderr=err)
    results = {}
    for name, process in processes.items():
        code = process.wait(timeout=120)
        results[name] = {
            "code": code,
            "out": (folder / f"{name}.out").read_text(),
            "err": (folder / f"{name}.err").read_text(),
            "seconds": round(time.monotonic() - started, 1),
        }
    return results


def start_node(arguments: list[str], env: dict[str, str], groups_file: Path) -> dict:
    """``ray start ARGUMENTS`` in a new process group, whose id goes to ``groups_file`` before it
    runs (so that a test which gives up on the scenario can still stop it)."""
    process = subprocess.Popen(
        [ray_command(), "start", *arguments, "--num-cpus", "1", "--disable-usage-stats"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    groups_file.write_text(json.dumps([*json.loads(groups_file.read_text()), process.pid]))
    started = time.monotonic()
    output, _ = process.communicate(timeout=90)
    seconds = round(time.monotonic() - started, 1)
    return {"code": process.returncode, "out": output, "seconds": seconds}


def scenario(folder: Path) -> dict:
    """Start the cluster, run the grid through it and once with authentication off, stop it."""
    plan = json.loads((folder / "scenario.json").read_text())
    temp_dir = tempfile.mkdtemp(prefix="slray-", dir="/tmp")  # short: Ray's socket paths
    port = free_port()
    address = f"{LOOPBACK}:{port}"
    token_env = dict(
        os.environ, RAY_TMPDIR=temp_dir, RAY_AUTH_MODE="token", RAY_AUTH_TOKEN=secrets.token_hex(32)
    )
    token_env.pop("RAY_ADDRESS", None)
    groups_file = folder / "groups.json"
    groups_file.write_text("[]")
    outcome: dict = {"address": address}
    try:
        head = ["--head", "--port", str(port), "--temp-dir", temp_dir, "--include-dashboard=false"]
        outcome["head"] = start_node([*head, "--node-ip-address", LOOPBACK], token_env, groups_file)
        address_file = Path(temp_dir, "ray_current_cluster")  # what the head advertises
        outcome["advertised"] = address_file.read_text().strip() if address_file.exists() else None
        if outcome["head"]["code"] != 0 or outcome["advertised"] != address:
            return outcome
        outcome["worker"] = start_node(
            ["--address", address, "--node-ip-address", LOOPBACK], token_env, groups_file
        )
        run = [sys.executable, "-m", "shortcutlab", "run", plan["spec"], "--executor", "ray"]
        # Beside the grid, a driver without the token (Ray's mode when RAY_AUTH_MODE is unset and
        # the address explicit), which the cluster refuses. Ray retries a refused connection for
        # 20 s; one try is enough here.
        no_token = dict(token_env, RAY_AUTH_MODE="disabled", RAY_gcs_server_port_wait_time_s="1")
        commands = {
            "grid": ([*run, "--address", address, "--out", plan["out"]], token_env),
            "refused": ([*run, "--address", address, "--out", plan["refused_out"]], no_token),
        }
        outcome.update(run_side_by_side(commands, folder))
    finally:
        started = time.monotonic()
        outcome["left"] = stop_groups(json.loads(groups_file.read_text()))
        outcome["stop_seconds"] = round(time.monotonic() - started, 1)
        shutil.rmtree(temp_dir, ignore_errors=True)
    return outcome


if __name__ == "__main__":
    run_folder = Path(sys.argv[1])
    result = scenario(run_folder)
    (run_folder / "outcome.json").write_text(json.dumps(result, indent=1))
