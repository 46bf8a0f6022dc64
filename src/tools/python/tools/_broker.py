"""Calls the host-side broker of this execution: ``call(route, payload) -> dict``.

The broker listens on a Unix socket the host binds into the sandbox (its folder is in the
CODE_AGENT_TOOLS environment variable); the sandbox itself has no network. A refusal comes back as
a ToolError saying which rule refused the call.
"""
import http.client
import json
import os
import socket

SOCKET_NAME = "broker.sock"
TIMEOUT_S = 300  # the host caps each call itself; this only stops a wait on a broker that is gone


class ToolError(RuntimeError):
    """A tool call the broker refused or could not serve (the message says why)."""


class _UnixConnection(http.client.HTTPConnection):
    def __init__(self, path):
        super().__init__("broker", timeout=TIMEOUT_S)
        self._path = path

    def connect(self):
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(self.timeout)
        sock.connect(self._path)
        self.sock = sock


def socket_path():
    """The broker's socket, or None when this execution has no tools."""
    folder = os.environ.get("CODE_AGENT_TOOLS")
    if not folder:
        return None
    path = os.path.join(folder, SOCKET_NAME)
    return path if os.path.exists(path) else None


def call(route, payload):
    """POSTs ``payload`` (JSON) to ``/<route>`` and returns the JSON answer (a dict).

    Raises ToolError when no tool is available here, or when the broker answers with an error.
    """
    path = socket_path()
    if path is None:
        raise ToolError("no tools are available to this program (this conversation may not use any)")
    conn = _UnixConnection(path)
    try:
        body = json.dumps(payload).encode("utf-8")
        conn.request("POST", "/" + route, body=body, headers={"Content-Type": "application/json"})
        resp = conn.getresponse()
        data = resp.read()
    finally:
        conn.close()
    try:
        answer = json.loads(data.decode("utf-8"))
    except ValueError:
        raise ToolError("the %s tool answered %d: %s" % (route, resp.status, data[:300].decode("utf-8", "replace")))
    if resp.status >= 400:
        message = answer.get("error") if isinstance(answer, dict) else None
        raise ToolError(message or "the %s tool answered %d" % (route, resp.status))
    return answer
