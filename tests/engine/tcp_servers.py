"""Small servers on 127.0.0.1 that are not what a client expects: one that accepts and says
nothing, one that answers with fixed bytes, one that answers HTTP. The network refusals of
``run --track`` and ``run --address`` are tested against them; nothing leaves the machine."""

from __future__ import annotations

import contextlib
import http.server
import socket
import ssl
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

LOOPBACK = "127.0.0.1"
#: What a gRPC server sends first: a SETTINGS frame (empty; RFC 9113 section 6.5).
HTTP2_SETTINGS = bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])
HTTP1_BAD_REQUEST = b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n"


class Accepting:
    """A TCP server's port, and an event set once it has accepted a connection."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.accepted = threading.Event()


@contextlib.contextmanager
def tcp_server(answer: bytes = b"", tls: ssl.SSLContext | None = None) -> Iterator[Accepting]:
    """A server that accepts every connection and sends ``answer`` once (nothing: a port that
    is open but never answers); with ``tls``, it first completes a TLS handshake. Stopped when
    the block ends."""
    listener = socket.create_server((LOOPBACK, 0))
    listener.settimeout(0.1)
    server, stop, connections = Accepting(listener.getsockname()[1]), threading.Event(), []

    def serve() -> None:
        while not stop.is_set():
            try:
                connection, _ = listener.accept()
            except TimeoutError:
                continue
            connections.append(connection)
            server.accepted.set()
            with contextlib.suppress(OSError):
                if tls is not None:
                    connection.settimeout(5)
                    connection = tls.wrap_socket(connection, server_side=True)
                    connections.append(connection)
                if answer:
                    connection.sendall(answer)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        stop.set()
        thread.join()
        for connection in [listener, *connections]:
            connection.close()


def closed_port() -> int:
    """A port on 127.0.0.1 where nothing listens (bound, then released)."""
    with socket.create_server((LOOPBACK, 0)) as probe:
        return probe.getsockname()[1]


@contextlib.contextmanager
def http_server(status: int, body: bytes, content_type: str = "text/html") -> Iterator[int]:
    """An HTTP server answering every GET with ``status`` and ``body``; yields its port."""

    class Fixed(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - the name http.server calls
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002
            pass  # quiet: the test's output is the command's

    with http.server.ThreadingHTTPServer((LOOPBACK, 0), Fixed) as server:
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            yield server.server_address[1]
        finally:
            server.shutdown()
            thread.join()


def tls_context(folder: Path) -> ssl.SSLContext | None:
    """A server's TLS context with a self-signed certificate made by ``openssl`` in ``folder``;
    None where there is no openssl."""
    key, cert = folder / "key.pem", folder / "cert.pem"
    try:
        subprocess.run(
            ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"]
            + ["-subj", "/CN=localhost", "-keyout", str(key), "-out", str(cert)],
            check=True,
            capture_output=True,
        )
    except (OSError, subprocess.CalledProcessError):
        return None
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    return context
