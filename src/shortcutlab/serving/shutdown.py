"""Serve in the foreground until SIGINT or SIGTERM, then stop cleanly.

A process inherits its signal dispositions: started in the background from a non-interactive
shell, SIGINT is ignored (so Ctrl-C's KeyboardInterrupt never comes), and SIGTERM, what ``kill``,
``docker stop`` and process managers send, kills Python by default without running ``finally``
blocks. :func:`stop_on_signals` therefore installs handlers for both explicitly, whatever was
inherited, and puts the previous dispositions back when the block ends.

The handler takes no lock. Python runs it in the main thread between two bytecodes, which may be
inside :meth:`StopRequest.wait` itself; a handler that called ``threading.Event.set`` there could
wait forever for the lock its own thread already held in ``Event.wait`` (a server started, printed
its URL, entered ``wait()``, and a SIGTERM sent on seeing the URL hung it). The handler writes a
byte to a socket pair instead, and :meth:`StopRequest.wait` waits on that socket with ``select``.

Examples:
    >>> import os, signal
    >>> with stop_on_signals() as stop:
    ...     os.kill(os.getpid(), signal.SIGTERM)
    ...     stop.wait(timeout=5).name
    'SIGTERM'
"""

from __future__ import annotations

import contextlib
import select
import signal
import socket
from collections.abc import Iterator, Sequence
from types import FrameType
from typing import Any

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class StopRequest:
    """Set by the first stop signal; :meth:`wait` blocks until then and names the signal.

    Holds a socket pair until :meth:`close`: the handler's wake-up call (see the module docstring).
    """

    def __init__(self) -> None:
        self.received: signal.Signals | None = None
        self._woken, self._wake = socket.socketpair()
        self._wake.setblocking(False)  # the handler must never block

    def handle(self, signum: int, frame: FrameType | None) -> None:
        """The signal handler: record the first signal and wake :meth:`wait` (a second is a no-op)."""
        if self.received is None:
            self.received = signal.Signals(signum)
        with contextlib.suppress(OSError):  # a full buffer (already woken) or a closed request
            self._wake.send(b"\0")

    def wait(self, timeout: float | None = None) -> signal.Signals | None:
        """Block until a stop signal arrives (or ``timeout`` passes: None); return the signal."""
        if self.received is None and self._woken.fileno() != -1:
            # A signal during select() runs the handler, whose byte ends the (retried) select.
            select.select([self._woken], [], [], timeout)
        return self.received

    def close(self) -> None:
        self._woken.close()
        self._wake.close()


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
        stop.close()
