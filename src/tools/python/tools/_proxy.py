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
    dropping = set()  # sockets whose bytes are read and dropped: their peer no longer takes them
    ended = set()  # sockets that sent all they will send; their peer was told (its sending side is shut)
    while True:
        for key, _ in sel.select():
            sock = key.fileobj
            if sock is listener:
                _accept(listener, path, sel, peers)
                continue
            other = peers.get(sock)
            if other is None:  # closed earlier in this round
                continue
            try:
                data = sock.recv(_CHUNK)
            except OSError:
                data = b""
            if data:
                if sock not in dropping:
                    try:
                        other.sendall(data)
                    except OSError:
                        # the other side closed while this one still sent (the broker answering a
                        # request it refused before the whole body came): the rest is dropped, and
                        # the other side's answer is still carried to this one
                        dropping.add(sock)
                continue
            # this side sent all it will: the other is told, and what it still sends is carried
            # back until it ends too (closing at once would reset a side still sending and lose
            # the answer waiting for it)
            sel.unregister(sock)
            ended.add(sock)
            try:
                other.shutdown(socket.SHUT_WR)
            except OSError:
                pass
            if other in ended:
                for s in (sock, other):
                    peers.pop(s, None)
                    dropping.discard(s)
                    ended.discard(s)
                    s.close()


def _accept(listener, path, sel, peers):
    """A new client of the relay: a connection of its own to the broker's socket."""
    try:
        client, _ = listener.accept()
    except OSError:  # out of file descriptors: the client waits in the backlog
        return
    upstream = None
    try:
        upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        upstream.connect(path)
    except OSError:
        client.close()
        if upstream is not None:
            upstream.close()
        return
    peers[client], peers[upstream] = upstream, client
    sel.register(client, selectors.EVENT_READ, None)
    sel.register(upstream, selectors.EVENT_READ, None)


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
