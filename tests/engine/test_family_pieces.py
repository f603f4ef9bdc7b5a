"""Every registered family's pieces have the call signature their Family field's Protocol
declares (:mod:`shortcutlab.engine.family_pieces`): a piece the engine would call with the
wrong parameters fails here, not in a run."""

from __future__ import annotations

import dataclasses
import inspect
import typing
from typing import Any

import pytest

from shortcutlab.engine.family import Family, resolve
from shortcutlab.families import FAMILIES

P = inspect.Parameter
POSITIONAL = (P.POSITIONAL_ONLY, P.POSITIONAL_OR_KEYWORD)


def piece_protocols() -> dict[str, type]:
    """Family field -> the Protocol its pieces follow (the non-str member of its type)."""
    hints = typing.get_type_hints(Family)
    found = {}
    for field in dataclasses.fields(Family):
        members = typing.get_args(hints[field.name])
        protocols = [m for m in members if getattr(m, "_is_protocol", False)]
        if protocols:
            found[field.name] = protocols[0]
    return found


def mismatches(function: Any, protocol: type) -> list[str]:
    """How ``function``'s parameters differ from those ``protocol.__call__`` declares: a
    positional parameter missing, renamed or of another kind; a keyword-only one missing; a
    ``**options`` not taken; a parameter of its own without a default."""
    wanted = list(inspect.signature(protocol.__call__).parameters.values())[1:]  # no self
    given = list(inspect.signature(function).parameters.values())
    positional = [p for p in given if p.kind in POSITIONAL]
    by_name = {p.name: p for p in given}
    takes_options = any(p.kind is P.VAR_KEYWORD for p in given)
    problems, matched = [], set()
    for index, want in enumerate(p for p in wanted if p.kind in POSITIONAL):
        have = positional[index] if index < len(positional) else None
        if have is None:
            problems.append(f"no positional parameter for {want.name!r}")
        elif want.kind is P.POSITIONAL_OR_KEYWORD and (have.name, have.kind) != (
            want.name,
            want.kind,
        ):
            problems.append(f"positional parameter {index} is {have} instead of {want}")
        else:
            matched.add(have.name)
    for want in (p for p in wanted if p.kind is P.KEYWORD_ONLY):
        have = by_name.get(want.name)
        if have is None and not takes_options:
            problems.append(f"no keyword parameter {want.name!r}")
        elif have is not None and have.kind not in (P.KEYWORD_ONLY, P.POSITIONAL_OR_KEYWORD):
            problems.append(f"{want.name!r} is {have.kind.description}, not keyword")
        elif have is not None:
            matched.add(have.name)
    if any(p.kind is P.VAR_KEYWORD for p in wanted) and not takes_options:
        problems.append("takes no **options")
    for extra in given:
        own = extra.name not in matched and extra.kind not in (P.VAR_KEYWORD, P.VAR_POSITIONAL)
        if own and extra.default is P.empty:
            problems.append(f"its own parameter {extra.name!r} has no default")
    return problems


def registered_pieces() -> list[tuple[str, str, Any]]:
    protocols = piece_protocols()
    return [
        (name, field, getattr(FAMILIES.get(name), field))
        for name in FAMILIES.names()
        for field in protocols
        if getattr(FAMILIES.get(name), field) is not None
    ]


def test_every_piece_field_is_typed_with_a_protocol():
    callables = {
        f.name
        for f in dataclasses.fields(Family)
        if "Callable" in str(f.type) or "Piece" in str(f.type)
    }
    assert not callables
    assert {"spec_parser", "runner", "results_loader", "results_writer", "evaluator"} <= set(
        piece_protocols()
    )


@pytest.mark.parametrize(("family", "field", "piece"), registered_pieces())
def test_each_registered_piece_matches_its_protocol(family, field, piece):
    protocol = piece_protocols()[field]
    assert mismatches(resolve(piece), protocol) == [], f"{family}.{field} = {piece}"


def test_a_mismatched_piece_is_caught():
    protocols = piece_protocols()

    def writer_without_fmt(results, out):
        return []

    def loader_with_another_keyword(run_dir, store, spec, *, resamples):
        return None

    def runner_without_options(spec, out):
        return None

    def evaluator_needing_seeds(folder, *, model, seeds):
        return None

    assert mismatches(writer_without_fmt, protocols["results_writer"]) == [
        "no positional parameter for 'fmt'"
    ]
    assert mismatches(loader_with_another_keyword, protocols["results_loader"]) == [
        "no keyword parameter 'bootstrap'",
        "its own parameter 'resamples' has no default",
    ]
    assert mismatches(runner_without_options, protocols["runner"]) == ["takes no **options"]
    assert mismatches(evaluator_needing_seeds, protocols["evaluator"]) == [
        "its own parameter 'seeds' has no default"
    ]
