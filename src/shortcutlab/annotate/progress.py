"""Which items each annotator has answered, kept in memory by the serving app.

An answer reply names the annotator's next item and counts: read from SQLite, that was two
queries per answer, one of them a scan over the annotator's earlier answers. The server is the
only writer of its task's store while it serves, so it can keep this in memory instead: an
annotator's answered items are read from the store once, when the annotator is first seen, and
each answer is added once its commit has returned (durable), never before.
"""

from __future__ import annotations

from shortcutlab.annotate.store import AnnotationStore


class AnnotatorProgress:
    """Answered positions per annotator, and the first position each has not answered.

    Answers are never taken back, so the first unanswered position only moves forward. Not
    thread-safe on its own: the app calls it under its lock.
    """

    def __init__(self, store: AnnotationStore, positions: dict[str, int]) -> None:
        self._store = store
        self._positions = positions  # item_id -> position, fixed once the task exists
        self._answered: dict[str, set[int]] = {}
        self._first_open: dict[str, int] = {}

    def _seen(self, annotator: str) -> set[int]:
        answered = self._answered.get(annotator)
        if answered is None:
            item_ids = self._store.answered_items(annotator)
            answered = {self._positions[item_id] for item_id in item_ids}
            self._answered[annotator] = answered
            self._first_open[annotator] = 0
        return answered

    def add(self, annotator: str, item_id: str) -> None:
        """Record that ``annotator``'s answer to ``item_id`` is stored (call after its commit)."""
        self._seen(annotator).add(self._positions[item_id])

    def answered(self, annotator: str) -> int:
        return len(self._seen(annotator))

    def next_position(self, annotator: str) -> int | None:
        """The first position ``annotator`` has not answered; None when every item is answered."""
        answered = self._seen(annotator)
        position = self._first_open[annotator]
        while position in answered:
            position += 1
        self._first_open[annotator] = position
        return position if position < len(self._positions) else None


__all__ = ["AnnotatorProgress"]
