"""shortcutlab: measure how much text classifiers rely on shortcuts, and whether it matters.

The public API loads lazily (PEP 562), so ``import shortcutlab`` stays cheap and the heavy
libraries are imported only by the functions that need them.

Examples:
    >>> import shortcutlab
    >>> corpus = shortcutlab.generate_corpus(train_size=300, test_size=200)
    >>> bench = shortcutlab.build_maze_benchmark(corpus["train"], corpus["test"], shortcut="single-term", strength=1.0)
    >>> result = shortcutlab.evaluate_benchmark(bench, seeds=1, bootstrap=100)
    >>> sorted(result.summary["splits"])
    ['anti_test', 'original_test', 'test']
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from shortcutlab._version import __version__
from shortcutlab.errors import (
    CellsFailedError,
    ConfigError,
    DataError,
    ShortcutlabError,
    ShortcutlabWarning,
)
from shortcutlab.lazy_exports import keep_public_names, lazy_exports

_LAZY = {
    "Benchmark": "shortcutlab.data.benchmark",
    "audit_dataset": "shortcutlab.families.audit.api",
    "CatConfig": "shortcutlab.families.cat.run",
    "CheckResult": "shortcutlab.check",
    "EvaluationResult": "shortcutlab.families.maze.evaluation_result",
    "InputOptions": "shortcutlab.data.options",
    "LabelSpace": "shortcutlab.data",
    "MODELS": "shortcutlab.models",
    "SHORTCUTS": "shortcutlab.shortcuts",
    "TextClassifier": "shortcutlab.models",
    "build_maze_benchmark": "shortcutlab.families.maze.build",
    "build_mps_benchmark": "shortcutlab.families.mps.build",
    "build_robustness_benchmark": "shortcutlab.families.robustness.build",
    "build_suite_benchmark": "shortcutlab.families.suite.build",
    "cat_augment": "shortcutlab.shortcuts.counterfactuals",
    "check": "shortcutlab.check",
    "evaluate_benchmark": "shortcutlab.families.maze.evaluate",
    "evaluate_robustness": "shortcutlab.families.robustness.evaluate",
    "evaluate_splits": "shortcutlab.families.maze.evaluate",
    "evaluate_suite": "shortcutlab.families.suite.evaluate",
    "explain": "shortcutlab.families.maze.explain",
    "generate_corpus": "shortcutlab.corpus",
    "load_results": "shortcutlab.families",
    "load_spec": "shortcutlab.families",
    "load_splits": "shortcutlab.data.existing_splits",
    "load_table": "shortcutlab.data",
    "make_model": "shortcutlab.models",
    "make_shortcut": "shortcutlab.shortcuts",
    "maze_table": "shortcutlab.reports",
    "run_cat": "shortcutlab.families.cat.run",
    "run_demo": "shortcutlab.demo",
    "run_experiment": "shortcutlab.families",
    "write_html_report": "shortcutlab.webreport.build",
}

if TYPE_CHECKING:  # pragma: no cover
    from shortcutlab.check import CheckResult, check
    from shortcutlab.corpus import generate_corpus
    from shortcutlab.data import LabelSpace, load_table
    from shortcutlab.data.benchmark import Benchmark
    from shortcutlab.data.existing_splits import load_splits
    from shortcutlab.data.options import InputOptions
    from shortcutlab.demo import run_demo
    from shortcutlab.families import load_results, load_spec, run_experiment
    from shortcutlab.families.audit.api import audit_dataset
    from shortcutlab.families.cat.run import CatConfig, run_cat
    from shortcutlab.families.maze.build import build_maze_benchmark
    from shortcutlab.families.maze.evaluate import evaluate_benchmark, evaluate_splits
    from shortcutlab.families.maze.evaluation_result import EvaluationResult
    from shortcutlab.families.maze.explain import explain
    from shortcutlab.families.mps.build import build_mps_benchmark
    from shortcutlab.families.robustness.build import build_robustness_benchmark
    from shortcutlab.families.robustness.evaluate import evaluate_robustness
    from shortcutlab.families.suite.build import build_suite_benchmark
    from shortcutlab.families.suite.evaluate import evaluate_suite
    from shortcutlab.models import MODELS, TextClassifier, make_model
    from shortcutlab.reports import maze_table
    from shortcutlab.shortcuts import SHORTCUTS, make_shortcut
    from shortcutlab.shortcuts.counterfactuals import cat_augment
    from shortcutlab.webreport.build import write_html_report


__getattr__, __dir__ = lazy_exports(__name__, _LAZY)
keep_public_names(__name__, _LAZY)


__all__ = [
    "Benchmark",
    "CatConfig",
    "CellsFailedError",
    "CheckResult",
    "ConfigError",
    "DataError",
    "EvaluationResult",
    "InputOptions",
    "LabelSpace",
    "MODELS",
    "SHORTCUTS",
    "ShortcutlabError",
    "ShortcutlabWarning",
    "TextClassifier",
    "__version__",
    "audit_dataset",
    "build_maze_benchmark",
    "build_mps_benchmark",
    "build_robustness_benchmark",
    "build_suite_benchmark",
    "cat_augment",
    "check",
    "evaluate_benchmark",
    "evaluate_robustness",
    "evaluate_splits",
    "evaluate_suite",
    "explain",
    "generate_corpus",
    "load_results",
    "load_spec",
    "load_splits",
    "load_table",
    "make_model",
    "make_shortcut",
    "maze_table",
    "run_cat",
    "run_demo",
    "run_experiment",
    "write_html_report",
]
