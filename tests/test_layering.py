"""The package's import layering: no cycles between subpackages, and imports point downwards only.

Every module under ``src/shortcutlab`` is parsed (not imported) and every import counts: those at
the top of a module, those inside functions (a lazy import is still a dependency, and a cycle
through it breaks as soon as someone moves it to the top), and registry entries such as
``"shortcutlab.models.tfidf:TfidfLogReg"`` or a module's name such as
``"shortcutlab.webreport.overview"``, which ``importlib`` resolves later.

A *unit* is a subpackage (``llm``) or a top-level module (``errors``); ``LAYERS`` lists them from
the bottom up, and a unit may import only units on its own layer or below, except the pairs in
``FORBIDDEN``. Cycles are checked between packages at every depth (``shortcuts`` and
``shortcuts.rewriters`` too), so no two packages import each other even where one unit holds both.

Inside the audit family the stages are subpackages in the order its data flows, ``AUDIT_STAGES``:
a stage imports only the stages before it, and none imports the entry points that join them.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

PACKAGE = "shortcutlab"
SOURCE = Path(__file__).resolve().parents[1] / "src" / PACKAGE

# Bottom to top. A unit imports only units of its own layer or lower ones.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("foundation", ("_version", "errors")),
    (
        "neutral helpers",
        (
            "registry",
            "lazy_exports",
            "params",
            "yaml_reading",
            "names",
            "fields",
            "cache_paths",
            "provenance",
            "casing",
            "torch_runtime",
            # One table's markup: the report renders its tables with it, and a Benchmark (data)
            # shows itself in a notebook with it.
            "html_table",
        ),
    ),
    ("data", ("data",)),
    ("clients and pure functions", ("llm", "metrics")),
    # Perturbations reuse the shortcuts' cue insertion (a Maze cue as a perturbation).
    ("components", ("models", "shortcuts", "perturb", "attributes", "explain")),
    ("builders", ("corpus", "reports")),
    # Mitigations train models on a benchmark's splits; the engine runs them in grids.
    ("training methods", ("mitigations",)),
    ("engine", ("engine", "serving")),
    # One subpackage per protocol (Maze, MPS, CAT, Suite, audit) and the registry that finds them.
    ("families", ("families",)),
    # Pages for people: the HTML report reads run folders and annotation summaries; the app serves.
    ("pages", ("annotate", "webreport")),
    # The demo runs two families and writes their report; check gates a model on several families.
    ("applications", ("demo", "export", "check")),
    ("interface", ("cli", "__main__", "__init__")),
)
# Directions the docs rely on beyond the layer order (the same layer would allow them).
FORBIDDEN = {
    ("corpus", "splits"),
    ("llm", "metrics"),
    ("metrics", "llm"),
    ("models", "shortcuts"),
    ("shortcuts", "models"),
    ("annotate", "webreport"),
}
AUDIT = f"{PACKAGE}.families.audit"
# The audit's stages in the order its data flows (issue 35); a stage imports only earlier ones.
AUDIT_STAGES = ("scan", "triage", "reliance", "repair", "report")
# What joins the stages (the package, run_audit, audit_dataset): no stage imports it.
AUDIT_ENTRY = "entry points"
AUDIT_ENTRY_POINTS = (AUDIT, f"{AUDIT}.api", f"{AUDIT}.run")
_REGISTRY_ENTRY = re.compile(rf"^({PACKAGE}(?:\.\w+)+):\w+(?:\.\w+)*$")


@dataclass(frozen=True)
class Import:
    source: str  # the importing module, e.g. shortcutlab.llm.base
    target: str  # the imported module, e.g. shortcutlab.params
    where: str  # path:line, for the failure message


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SOURCE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(SOURCE.rglob("*.py"))}


def _absolute(module: str | None, level: int, importer: str, is_package: bool) -> str:
    if level == 0:
        return module or ""
    base = importer.split(".")
    base = base if is_package else base[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join(base + ([module] if module else []))


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> list[Import]:
    """Every import of a shortcutlab module in ``path``, at any depth of the syntax tree."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
    found: list[Import] = []

    def add(target: str, node: ast.AST) -> None:
        if target == PACKAGE or target.startswith(PACKAGE + "."):
            where = f"{path.relative_to(SOURCE.parent)}:{getattr(node, 'lineno', 0)}"
            found.append(Import(name, target, where))

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name, node)
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node.module, node.level, name, is_package)
            for alias in node.names:  # `from shortcutlab import errors` imports a module
                submodule = f"{base}.{alias.name}"
                add(submodule if submodule in modules else base, node)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            match = _REGISTRY_ENTRY.match(node.value)
            if match:
                add(match.group(1), node)
            elif node.value in modules and "." in node.value:  # a module named for importlib
                add(node.value, node)
    return found


def unit_of(module: str) -> str:
    """``shortcutlab.llm.base`` -> ``llm``; ``shortcutlab.errors`` -> ``errors``; the root -> ``__init__``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def package_of(module: str, packages: set[str]) -> str:
    """The package a module belongs to (a package belongs to itself); top-level modules stand alone."""
    if module in packages:
        return module
    parent = module.rpartition(".")[0]
    return module if parent == PACKAGE else parent


def import_edges(group: Callable[[str], str]) -> dict[tuple[str, str], list[str]]:
    """Edges between different ``group(module)`` nodes, each with the places that make it."""
    modules = _modules()
    edges: dict[tuple[str, str], list[str]] = defaultdict(list)
    for name, path in modules.items():
        for item in imports_of(name, path, modules):
            source, target = group(item.source), group(item.target)
            if source != target and item.where not in edges[source, target]:
                edges[source, target].append(item.where)
    return dict(edges)


def unit_imports() -> dict[tuple[str, str], list[str]]:
    return import_edges(unit_of)


def package_imports() -> dict[tuple[str, str], list[str]]:
    packages = {name for name, path in _modules().items() if path.name == "__init__.py"}
    return import_edges(lambda module: package_of(module, packages))


def audit_stage_of(module: str) -> str:
    """``...audit.scan.features`` -> ``scan``; ``...audit.run`` -> AUDIT_ENTRY; else outside."""
    if module != AUDIT and not module.startswith(AUDIT + "."):
        return "outside"
    stage = module[len(AUDIT) + 1 :].partition(".")[0]
    return stage if stage in AUDIT_STAGES else AUDIT_ENTRY


def audit_stage_violations(edges: dict[tuple[str, str], list[str]]) -> list[tuple[str, str]]:
    """The stage edges that point at a later stage or at the entry points."""
    rank = {stage: i for i, stage in enumerate(AUDIT_STAGES)}
    return sorted(
        (source, target)
        for source, target in edges
        if source in rank
        and (target == AUDIT_ENTRY or (target in rank and rank[target] > rank[source]))
    )


def cycles(edges: dict[tuple[str, str], list[str]]) -> list[list[str]]:
    """The strongly connected components with more than one unit (Tarjan), each sorted."""
    graph: dict[str, set[str]] = defaultdict(set)
    for source, target in edges:
        graph[source].add(target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for successor in sorted(graph[node]):
            if successor not in index:
                visit(successor)
                low[node] = min(low[node], low[successor])
            elif successor in on_stack:
                low[node] = min(low[node], index[successor])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for node in sorted(set(graph) | {t for targets in graph.values() for t in targets}):
        if node not in index:
            visit(node)
    return sorted(components)


def _layer_rank() -> dict[str, int]:
    return {unit: rank for rank, (_, units) in enumerate(LAYERS) for unit in units}


def _describe(edges: dict[tuple[str, str], list[str]], pairs: list[tuple[str, str]]) -> str:
    return "\n".join(
        f"  {source} -> {target}: {', '.join(edges[source, target][:4])}"
        + (f" (+{len(edges[source, target]) - 4} more)" if len(edges[source, target]) > 4 else "")
        for source, target in pairs
    )


def test_every_unit_has_a_layer_and_every_layer_entry_exists():
    units = {unit_of(name) for name in _modules()}
    missing = sorted(units - set(_layer_rank()))
    assert not missing, f"Add these to LAYERS in {Path(__file__).name}: {', '.join(missing)}"
    stale = sorted(set(_layer_rank()) - units)
    assert not stale, f"LAYERS names units that no longer exist: {', '.join(stale)}"


def test_no_import_cycles_between_packages():
    edges = package_imports()
    found = cycles(edges)
    message = []
    for component in found:
        inside = sorted(pair for pair in edges if pair[0] in component and pair[1] in component)
        message.append(f"cycle between {', '.join(component)}:\n" + _describe(edges, inside))
    assert not found, "\n".join(message)


def test_imports_point_down_the_layers():
    rank = _layer_rank()
    edges = unit_imports()
    upward = sorted(
        (source, target)
        for source, target in edges
        if rank.get(target, -1) > rank.get(source, len(LAYERS)) or (source, target) in FORBIDDEN
    )
    assert not upward, "imports against the layering (see LAYERS):\n" + _describe(edges, upward)


def test_every_audit_module_belongs_to_a_stage_or_joins_them():
    stray = sorted(
        name
        for name in _modules()
        if audit_stage_of(name) == AUDIT_ENTRY and name not in AUDIT_ENTRY_POINTS
    )
    assert not stray, f"Put these in one of the audit's stages {AUDIT_STAGES}: {', '.join(stray)}"


def test_audit_stages_import_only_earlier_stages():
    edges = import_edges(audit_stage_of)
    against = audit_stage_violations(edges)
    assert not against, (
        f"audit stages import later ones or the entry points (order: {' < '.join(AUDIT_STAGES)}):\n"
        + _describe(edges, against)
    )
    made_up = {("scan", "report"): ["a"], ("report", "scan"): ["b"], ("triage", AUDIT_ENTRY): ["c"]}
    assert audit_stage_violations(made_up) == [("scan", "report"), ("triage", AUDIT_ENTRY)]


def test_the_scanner_sees_lazy_relative_and_registry_imports(tmp_path, monkeypatch):
    """The checks above are only as good as the scan: feed it each kind of import once."""
    package = tmp_path / PACKAGE / "llm"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(
        "from . import base\nREG = 'shortcutlab.llm.base:Client'\n", encoding="utf-8"
    )
    (package / "base.py").write_text(
        "from ..errors import ConfigError\n"
        "def lazy():\n    from shortcutlab.params import require\n"
        "import shortcutlab.data.loading as loading\n",
        encoding="utf-8",
    )
    modules = {
        "shortcutlab.llm": package / "__init__.py",
        "shortcutlab.llm.base": package / "base.py",
    }
    monkeypatch.setattr(f"{__name__}.SOURCE", tmp_path / PACKAGE)
    targets = {
        name: sorted(i.target for i in imports_of(name, path, modules))
        for name, path in modules.items()
    }
    assert targets == {
        "shortcutlab.llm": ["shortcutlab.llm.base", "shortcutlab.llm.base"],
        "shortcutlab.llm.base": [
            "shortcutlab.data.loading",
            "shortcutlab.errors",
            "shortcutlab.params",
        ],
    }
    assert cycles({("a", "b"): ["x"], ("b", "c"): ["y"], ("c", "a"): ["z"], ("c", "d"): ["w"]}) == [
        ["a", "b", "c"]
    ]
