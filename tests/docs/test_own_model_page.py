"""The "Your own model" section of docs/how-to/choose-a-model.md: its Python examples run, in
order, in one namespace (a pipeline and a plain class, each evaluated without registration)."""

from __future__ import annotations

import re
from pathlib import Path

PAGE = Path(__file__).parents[2] / "docs" / "how-to" / "choose-a-model.md"


def test_the_own_model_examples_run():
    section = PAGE.read_text(encoding="utf-8").split("## Your own model", 1)[1].split("\n## ")[0]
    blocks = re.findall(r"```python\n(.*?)```", section, flags=re.DOTALL)
    assert len(blocks) == 2
    namespace: dict[str, object] = {}
    for block in blocks:
        exec(compile(block, str(PAGE), "exec"), namespace)  # noqa: S102 - the page's own examples
    result = namespace["result"]
    assert result.statistics["model"] == "Centroids"  # type: ignore[attr-defined]
    assert result.runs[0]["splits"]["test"]["accuracy"] > 0.3  # type: ignore[attr-defined]  # 5 labels: chance is 0.2
