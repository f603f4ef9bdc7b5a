"""``shortcutlab report``: one self-contained HTML page per run folder (and the demo's).

Reads what the engine and the annotation app wrote (grid stores, benchmark folders, explain,
Suite, rewrite-quality and annotation outputs) into a :class:`shortcutlab.reports.html.document.Report`
and renders it with :mod:`shortcutlab.reports.html`. Sections appear only when the run has them.

It asks :data:`shortcutlab.families.FAMILIES` for each run folder's sections and each family's
output kinds, and imports ``engine``, ``annotate`` (annotation summaries), ``reports`` and ``data``.
"""
