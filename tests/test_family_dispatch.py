"""Nothing outside a family's package asks "which family is this?": it asks the registry.

Every module that can see the families (the engine's layer and above, see ``test_layering``) is
parsed (not imported) and searched for the three shapes
family dispatch takes: a comparison with a family's name (``spec.get("family") == "mps"``,
``family in ("maze", "mps")``), a mapping keyed by several family names (``{"maze": build_maze,
"mps": build_mps}``), and ``isinstance`` against a class defined in a family's package. Inside
``families/<name>/`` a family may name itself, never another. Layers below the engine cannot
import a family, so a name there means something else (torch's ``"mps"`` device).
"""

from __future__ import annotations

import ast
from pathlib import Path

from shortcutlab.families import FAMILIES
from tests.test_layering import LAYERS, module_name, unit_of

SOURCE = Path(__file__).resolve().parents[1] / "src" / "shortcutlab"
FAMILY_ROOT = SOURCE / "families"


def own_family(path: Path) -> str | None:
    """The family whose package holds ``path`` (None outside every family's package)."""
    try:
        parts = path.relative_to(FAMILY_ROOT).parts
    except ValueError:
        return None
    return parts[0] if len(parts) > 1 else None


def family_classes(root: Path, names: set[str]) -> dict[str, str]:
    """Class name -> the family whose package defines it."""
    found: dict[str, str] = {}
    for name in names:
        for path in sorted((root / name).rglob("*.py")) if (root / name).is_dir() else []:
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ClassDef):
                    found[node.name] = name
    return found


def _strings(node: ast.AST) -> list[str]:
    """The string constants of ``node`` or of the tuple / list / set it is."""
    items = node.elts if isinstance(node, ast.Tuple | ast.List | ast.Set) else [node]
    return [i.value for i in items if isinstance(i, ast.Constant) and isinstance(i.value, str)]


def _names(node: ast.AST) -> list[str]:
    items = node.elts if isinstance(node, ast.Tuple) else [node]
    return [
        i.id if isinstance(i, ast.Name) else i.attr
        for i in items
        if isinstance(i, ast.Name | ast.Attribute)
    ]


def dispatches(
    source: str, where: str, own: str | None, families: set[str], classes: dict[str, str]
) -> list[str]:
    """Each place in ``source`` that dispatches on a family other than ``own``."""
    others = families - {own}
    found = []
    for node in ast.walk(ast.parse(source)):
        line = f"{where}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Compare):
            named = {s for side in (node.left, *node.comparators) for s in _strings(side)}
            if named & others:
                found.append(f"{line} compares with {sorted(named & others)}")
        elif isinstance(node, ast.Dict):
            keys = {k.value for k in node.keys if isinstance(k, ast.Constant)} & families
            if len(keys) > 1:
                found.append(f"{line} maps family names {sorted(keys)}")
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("isinstance", "issubclass")
            and len(node.args) == 2
        ):
            foreign = [n for n in _names(node.args[1]) if classes.get(n, own) != own]
            if foreign:
                found.append(f"{line} isinstance against {foreign}")
    return found


def sees_families(path: Path) -> bool:
    """Whether ``path``'s unit sits on the engine's layer or above."""
    ranks = {unit: rank for rank, (_, units) in enumerate(LAYERS) for unit in units}
    return ranks[unit_of(module_name(path))] >= ranks["engine"]


def test_no_module_dispatches_on_another_family():
    families = set(FAMILIES.names())
    classes = family_classes(FAMILY_ROOT, families)
    found = []
    for path in sorted(p for p in SOURCE.rglob("*.py") if sees_families(p)):
        where = str(path.relative_to(SOURCE.parent))
        text = path.read_text(encoding="utf-8")
        found += dispatches(text, where, own_family(path), families, classes)
    assert not found, "family dispatch outside the registry:\n  " + "\n  ".join(found)


def test_every_family_package_is_registered_and_every_entry_resolves():
    packages = {p.name for p in FAMILY_ROOT.iterdir() if (p / "__init__.py").is_file()}
    assert packages == set(FAMILIES.names())
    for name in FAMILIES.names():
        assert FAMILIES.get(name).name == name


def test_the_scan_sees_each_shape_of_dispatch():
    """The check above is only as good as the scan: feed it each shape once."""
    families = {"maze", "mps", "cat"}
    classes = {"MpsSpec": "mps", "RunResults": "maze"}
    source = (
        "if spec.get('family') == 'mps': pass\n"
        "ok = family in ('maze', 'cat')\n"
        "builders = {'maze': a, 'mps': b}\n"
        "if isinstance(spec, (RunResults, MpsSpec)): pass\n"
        "fine = {'maze': a}\n"
        "also_fine = name == 'tfidf'\n"
    )
    outside = dispatches(source, "m.py", None, families, classes)
    assert [entry.split(" ", 1)[0] for entry in outside] == ["m.py:1", "m.py:2", "m.py:3", "m.py:4"]
    inside_mps = dispatches(source, "m.py", "mps", families, classes)
    assert "m.py:1 compares with ['mps']" not in inside_mps  # a family may name itself
    assert "m.py:2 compares with ['cat', 'maze']" in inside_mps
    assert "m.py:4 isinstance against ['RunResults']" in inside_mps
