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

import importlib
from typing import TYPE_CHECKING, Any

from shortcutlab._version import __version__
from shortcutlab.errors import ConfigError, DataError, ShortcutlabError, ShortcutlabWarning

_LAZY = {
    "Benchmark": "shortcutlab.splits",
    "audit_dataset": "shortcutlab.audit.api",
    "CatConfig": "shortcutlab.experiments.cat",
    "EvaluationResult": "shortcutlab.experiments.evaluate",
    "LabelSpace": "shortcutlab.data",
    "MODELS": "shortcutlab.models",
    "SHORTCUTS": "shortcutlab.shortcuts",
    "TextClassifier": "shortcutlab.models",
    "build_maze_benchmark": "shortcutlab.splits",
    "build_mps_benchmark": "shortcutlab.splits",
    "build_suite_benchmark": "shortcutlab.splits.suite",
    "cat_augment": "shortcutlab.splits.cat",
    "evaluate_benchmark": "shortcutlab.experiments.evaluate",
    "evaluate_suite": "shortcutlab.experiments.suite_eval",
    "explain": "shortcutlab.experiments.explain",
    "generate_corpus": "shortcutlab.corpus",
    "load_results": "shortcutlab.experiments.results",
    "load_spec": "shortcutlab.experiments.spec",
    "load_table": "shortcutlab.data",
    "make_model": "shortcutlab.models",
    "make_shortcut": "shortcutlab.shortcuts",
    "maze_table": "shortcutlab.reports",
    "run_cat": "shortcutlab.experiments.cat",
    "run_demo": "shortcutlab.webreport.demo",
    "run_experiment": "shortcutlab.experiments.runner",
    "write_html_report": "shortcutlab.webreport.build",
}

if TYPE_CHECKING:  # pragma: no cover
    from shortcutlab.audit.api import audit_dataset
    from shortcutlab.corpus import generate_corpus
    from shortcutlab.data import LabelSpace, load_table
    from shortcutlab.experiments.cat import CatConfig, run_cat
    from shortcutlab.experiments.evaluate import EvaluationResult, evaluate_benchmark
    from shortcutlab.experiments.explain import explain
    from shortcutlab.experiments.results import load_results
    from shortcutlab.experiments.runner import run_experiment
    from shortcutlab.experiments.spec import load_spec
    from shortcutlab.experiments.suite_eval import evaluate_suite
    from shortcutlab.models import MODELS, TextClassifier, make_model
    from shortcutlab.reports import maze_table
    from shortcutlab.shortcuts import SHORTCUTS, make_shortcut
    from shortcutlab.splits import Benchmark, build_maze_benchmark, build_mps_benchmark
    from shortcutlab.splits.cat import cat_augment
    from shortcutlab.splits.suite import build_suite_benchmark
    from shortcutlab.webreport.build import write_html_report
    from shortcutlab.webreport.demo import run_demo


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'shortcutlab' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "Benchmark",
    "CatConfig",
    "ConfigError",
    "DataError",
    "EvaluationResult",
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
    "build_suite_benchmark",
    "cat_augment",
    "evaluate_benchmark",
    "evaluate_suite",
    "explain",
    "generate_corpus",
    "load_results",
    "load_spec",
    "load_table",
    "make_model",
    "make_shortcut",
    "maze_table",
    "run_cat",
    "run_demo",
    "run_experiment",
    "write_html_report",
]
