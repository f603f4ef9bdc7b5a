"""The public API is pinned: additions and removals are deliberate (httpx style)."""

import shortcutlab


def test_all_is_sorted_and_complete():
    assert shortcutlab.__all__ == sorted(shortcutlab.__all__)
    assert shortcutlab.__all__ == [
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
    for name in shortcutlab.__all__:
        assert hasattr(shortcutlab, name)


def test_import_is_light():
    import subprocess
    import sys

    code = "import shortcutlab, sys; print(sorted(m for m in ('torch', 'transformers', 'datasets', 'sklearn', 'matplotlib') if m in sys.modules))"
    assert (
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        ).stdout.strip()
        == "[]"
    )


def test_the_command_line_and_the_registries_start_without_the_heavy_libraries():
    """Every command imports the CLI; every family package imports the family registry: neither
    may load scipy, scikit-learn, torch or the grid engine's fitting code at start-up."""
    import subprocess
    import sys

    heavy = ("scipy", "sklearn", "torch", "transformers", "matplotlib", "shortcutlab.engine.cell")
    for module in ("shortcutlab.cli.app", "shortcutlab.families", "shortcutlab.metrics"):
        code = f"import {module}, sys; print(sorted(m for m in {heavy!r} if m in sys.modules))"
        loaded = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        ).stdout.strip()
        assert loaded == "[]", (module, loaded)
