"""Test harness for the SQL client: posts a route's JSON payload to the test's HTTP server on the
Unix socket named by SQL_HARNESS_SOCKET and returns the JSON body (whatever the status)."""
import http.client
import json
import os
import socket


class _UnixConnection(http.client.HTTPConnection):
    def __init__(self, path):
        super().__init__("localhost")
        self._path = path

    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(self._path)


def call(route, payload):
    conn = _UnixConnection(os.environ["SQL_HARNESS_SOCKET"])
    conn.request("POST", route, body=json.dumps(payload), headers={"Content-Type": "application/json"})
    return json.loads(conn.getresponse().read())
