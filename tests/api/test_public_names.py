"""``shortcutlab.check`` and ``shortcutlab.explain`` are functions and subpackages of the same
name: importing the subpackage first must not turn the function into the module
(shortcutlab/lazy_exports.py, ``keep_public_names``)."""

from __future__ import annotations

import subprocess
import sys

SCRIPT = """
import shortcutlab as sl
import shortcutlab.check.suite, shortcutlab.explain.shap_text  # subpackages first, names after
from shortcutlab.explain import shap_text
print(sl.check.__module__, sl.explain.__module__, shap_text.__name__)
"""


def test_importing_a_subpackage_first_keeps_the_public_function():
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [
        "shortcutlab.check.run",
        "shortcutlab.families.maze.explain",
        "shortcutlab.explain.shap_text",
    ]
