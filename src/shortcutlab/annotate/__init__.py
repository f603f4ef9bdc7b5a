"""``shortcutlab annotate``: a local web app where people label rows, verify concept labels and
counterfactual pairs, judge rewrites, and judge an audit's candidates as shortcut or label
signal; answers in SQLite (WAL), summaries and agreement (κ) exported into the run's results for
the report (and, for an audit, the judgements file the audit reads back).

It sits above the families: it asks :data:`shortcutlab.families.FAMILIES` what a run holds, and
two task kinds use their protocol's own pieces (``verify-counterfactual`` CAT's counterfactuals,
``rewrite-quality`` the Maze style checks). It imports ``engine``, ``serving``, ``metrics``,
``reports`` and ``data``; never ``webreport``.
"""
