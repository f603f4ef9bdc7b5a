"""``shortcutlab annotate``: a local web app where people label rows, verify concept labels and
counterfactual pairs, and judge rewrites; answers in SQLite (WAL), summaries and agreement (κ)
exported into the run's results for the report."""
