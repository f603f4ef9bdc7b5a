"""Self-contained HTML pages: a document model (sections of tables, figures, rows) and its
rendering with the package's Jinja2 templates into one file with inline CSS, SVG and script.

Part of :mod:`shortcutlab.reports`; it imports what that package may.
"""
