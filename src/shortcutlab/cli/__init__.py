"""The ``shortcutlab`` command line: a thin Typer layer over the Python API.

Each command parses its options, calls the same public function a script would, and prints.
Input errors print one line and exit 2 (:func:`.console.user_errors`). Only this package prints to
the terminal. It may import every other package; nothing imports it.
"""
