"""Reports: tables, plots (presentation only, no computation).

Shared by every family: the tidy and paper-layout tables, the plots, and ``html/`` (the page's
document model and rendering). It imports ``data``, ``metrics`` (the metric registry's titles)
and the bottom layer; a family's own tables live in its package.
"""

from shortcutlab.reports.plots import plot_delta_vs_strength
from shortcutlab.reports.tables import maze_table, per_label_table, result_table, to_markdown

__all__ = ["maze_table", "per_label_table", "plot_delta_vs_strength", "result_table", "to_markdown"]
