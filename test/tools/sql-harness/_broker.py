"""Test harness for the SQL client, with the broker client's contract: ``call(route, payload)``
POSTs the JSON payload to ``/<route>`` on the Unix socket named by SQL_HARNESS_SOCKET, returns the
JSON answer, and raises ToolError with the answer's ``error`` when the status is 400 or more."""
import http.client
import json
import os
import socket


class ToolError(RuntimeError):
    pass


class _UnixConnection(http.client.HTTPConnection):
    def __init__(self, path):
        super().__init__("localhost")
        self._path = path

    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(self._path)


def call(route, payload):
    conn = _UnixConnection(os.environ["SQL_HARNESS_SOCKET"])
    conn.request("POST", "/" + route, body=json.dumps(payload), headers={"Content-Type": "application/json"})
    resp = conn.getresponse()
    answer = json.loads(resp.read())
    if resp.status >= 400:
        raise ToolError(answer.get("error") or "the %s tool answered %d" % (route, resp.status))
    return answer
