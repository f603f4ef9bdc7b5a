"""Serve in the foreground until SIGINT or SIGTERM, then stop cleanly.

A process inherits its signal dispositions: started in the background from a non-interactive
shell, SIGINT is ignored (so Ctrl-C's KeyboardInterrupt never comes), and SIGTERM, what ``kill``,
``docker stop`` and process managers send, kills Python by default without running ``finally``
blocks. :func:`stop_on_signals` therefore installs handlers for both explicitly, whatever was
inherited, and puts the previous dispositions back when the block ends.

Examples:
    >>> import os, signal
    >>> with stop_on_signals() as stop:
    ...     os.kill(os.getpid(), signal.SIGTERM)
    ...     stop.wait(timeout=5).name
    'SIGTERM'
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator, Sequence
from types import FrameType
from typing import Any

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class StopRequest:
    """Set by the first stop signal; :meth:`wait` blocks until then and names the signal."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self.received: signal.Signals | None = None

    def handle(self, signum: int, frame: FrameType | None) -> None:
        """The signal handler: record the first signal and wake :meth:`wait` (a second is a no-op)."""
        if self.received is None:
            self.received = signal.Signals(signum)
        self._event.set()

    def wait(self, timeout: float | None = None) -> signal.Signals | None:
        """Block until a stop signal arrives (or ``timeout`` passes: None); return the signal."""
        self._event.wait(timeout)
        return self.received


@contextlib.contextmanager
def stop_on_signals(signals: Sequence[signal.Signals] = STOP_SIGNALS) -> Iterator[StopRequest]:
    """Route ``signals`` to a :class:`StopRequest` inside the block; restore the old handlers after.

    Only the main thread may install signal handlers (``signal.signal`` raises ValueError elsewhere).
    """
    stop = StopRequest()
    previous: dict[signal.Signals, Any] = {}
    try:
        for number in signals:
            previous[number] = signal.signal(number, stop.handle)
        yield stop
    finally:
        for number, handler in previous.items():
            # None: the old handler was installed outside Python; the default is the closest match.
            signal.signal(number, signal.SIG_DFL if handler is None else handler)
