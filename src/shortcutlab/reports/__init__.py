"""Reports: tables, plots (presentation only, no computation)."""

from shortcutlab.reports.plots import plot_delta_vs_strength
from shortcutlab.reports.tables import maze_table, per_label_table, result_table, to_markdown

__all__ = ["maze_table", "per_label_table", "plot_delta_vs_strength", "result_table", "to_markdown"]
