"""Doctests run in an empty temporary folder: a relative path in an example must not find what a
user left in the checkout (the README's commands write data/, benchmark/ and results/ there)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _doctests_in_an_empty_folder(request: pytest.FixtureRequest) -> None:
    if isinstance(request.node, pytest.DoctestItem):
        request.getfixturevalue("monkeypatch").chdir(request.getfixturevalue("tmp_path"))
