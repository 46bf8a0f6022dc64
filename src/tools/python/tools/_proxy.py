"""The program's HTTP proxy: a relay on 127.0.0.1 inside the sandbox to the host-side broker.

The sandbox has no network: only its own loopback. The runner starts this relay before the
program when the execution has a broker, and points HTTP_PROXY/HTTPS_PROXY at it, so ordinary
code (urllib.request, requests, pandas.read_csv(url)) sends its requests to the broker, which
checks each one against the conversation's rules, adds the host's credentials outside the
sandbox, and answers. For https it trusts the broker's CA (SSL_CERT_FILE, REQUESTS_CA_BUNDLE).
The relay copies bytes only; every rule is on the host side.
"""
import os
import selectors
import socket
import threading

_CHUNK = 65536
_PROXY_VARIABLES = ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy")


def _relay(listener, path):
    sel = selectors.DefaultSelector()
    sel.register(listener, selectors.EVENT_READ, None)
    peers = {}
    while True:
        for key, _ in sel.select():
            sock = key.fileobj
            if sock is listener:
                try:
                    client, _ = listener.accept()
                except OSError:  # out of file descriptors: the client waits in the backlog
                    continue
                upstream = None
                try:
                    upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                    upstream.connect(path)
                except OSError:
                    client.close()
                    if upstream is not None:
                        upstream.close()
                    continue
                peers[client], peers[upstream] = upstream, client
                sel.register(client, selectors.EVENT_READ, None)
                sel.register(upstream, selectors.EVENT_READ, None)
                continue
            other = peers.get(sock)
            try:
                data = sock.recv(_CHUNK)
            except OSError:
                data = b""
            if data:
                try:
                    other.sendall(data)
                    continue
                except OSError:
                    pass
            for s in (sock, other):  # one side ended: the exchange is over
                if s in peers:
                    sel.unregister(s)
                    peers.pop(s, None)
                    s.close()


def start(folder):
    """Starts the relay (a daemon thread) and sets the proxy and CA variables of this process."""
    path = os.path.join(folder, "broker.sock")
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    url = "http://127.0.0.1:%d" % listener.getsockname()[1]
    threading.Thread(target=_relay, args=(listener, path), name="code-agent-tools-relay", daemon=True).start()
    for name in _PROXY_VARIABLES:
        os.environ[name] = url
    for name in ("NO_PROXY", "no_proxy"):
        os.environ.pop(name, None)
    os.environ["CODE_AGENT_TOOLS"] = folder
    ca = os.path.join(folder, "ca.pem")
    if os.path.exists(ca):
        os.environ["SSL_CERT_FILE"] = ca
        os.environ["REQUESTS_CA_BUNDLE"] = ca
        os.environ["CURL_CA_BUNDLE"] = ca
    return url
