"""A cell's process uses the threads it was given, for BLAS and for a torch imported later, and a
TF-IDF cell does not pay for importing torch (about 4 s per process)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

SCRIPT = """
import json, sys
from shortcutlab.engine.worker import pin_threads
pin_threads(1)
loaded = "torch" in sys.modules
import torch
print(json.dumps({"loaded_by_pin": loaded, "threads": torch.get_num_threads()}))
"""


def test_pinning_imports_no_torch_and_a_later_torch_uses_the_threads_given():
    pytest.importorskip("torch")
    env = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=env, check=True
    )
    assert json.loads(done.stdout.strip().splitlines()[-1]) == {
        "loaded_by_pin": False,
        "threads": 1,
    }
