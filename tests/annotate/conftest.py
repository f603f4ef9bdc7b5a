"""Fixtures of the annotation tests: small real sources (see task_sources.py)."""

from tests.annotate.task_sources import cat_output, cat_run, maze_run, mps_run, style_build  # noqa: F401
