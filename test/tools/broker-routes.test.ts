/**
 * The broker's JSON routes from a real sandbox (`tools._broker.call`, what `from tools import sql`
 * uses): the route's answer and record come back; unknown routes, bad JSON and other methods get a
 * clear error; a program without tools is told so; the socket is gone once the execution ended.
 */
import { describe, expect, it } from 'vitest';
import { makeExecutor } from '../sandbox/helpers.js';
import { ToolBroker } from '../../src/tools/broker.js';
import type { RouteHandler } from '../../src/tools/types.js';

const echo: RouteHandler = async (payload) => ({
  status: 200,
  body: { got: payload },
  record: { tool: 'echo', summary: `echo: ${JSON.stringify(payload)}`, ok: true, durationMs: 0, bytes: 10 },
});

describe('broker routes', () => {
  const ex = makeExecutor({ warmPool: 0, spareSlots: 0 });

  it('call(route, payload) reaches the route; its record is kept with the execution result', async () => {
    const broker = new ToolBroker({ routes: () => ({ echo }) });
    const code = [
      'from tools._broker import call, ToolError',
      'print(call("echo", {"n": 1, "s": "é"}))',
      'try:',
      '    call("nope", {})',
      'except ToolError as e:',
      '    print("ToolError:", e)',
    ].join('\n');
    const result = await ex.execute(code, { tools: broker });
    expect(result.stdout).toBe("{'got': {'n': 1, 's': 'é'}}\nToolError: no tool route /nope here (this conversation may not use it, or it does not exist)\n");
    expect(result.toolCalls).toEqual([{ tool: 'echo', summary: 'echo: {"n":1,"s":"é"}', ok: true, durationMs: 0, bytes: 10 }]);
  }, 30_000);

  it('bad JSON, another method and HTTP without the HTTP tool get clear errors', async () => {
    const broker = new ToolBroker({ routes: () => ({ echo }) });
    const code = [
      'import os, socket, urllib.request',
      'path = os.path.join(os.environ["CODE_AGENT_TOOLS"], "broker.sock")',
      'def raw(req):',
      '    s = socket.socket(socket.AF_UNIX); s.connect(path); s.sendall(req)',
      '    print(s.recv(4096).decode().split("\\r\\n")[-1])',
      'raw(b"POST /echo HTTP/1.1\\r\\nHost: b\\r\\nContent-Length: 3\\r\\nConnection: close\\r\\n\\r\\n{x}")',
      'raw(b"GET /echo HTTP/1.1\\r\\nHost: b\\r\\nConnection: close\\r\\n\\r\\n")',
      'try:',
      '    urllib.request.urlopen("http://example.com/")',
      'except Exception as e:',
      '    print(e.code, e.read().decode().strip())',
    ].join('\n');
    const result = await ex.execute(code, { tools: broker });
    expect(result.stdout).toBe(
      '{"error":"the request body is not JSON"}\n{"error":"use POST /echo"}\n403 code-agent tools: this conversation may not use the HTTP tool (tools.http.conversations)\n',
    );
  }, 30_000);

  it('the relay carries an answer the broker gave before the body ended (a body over the limit gets 413, not a reset connection)', async () => {
    const broker = new ToolBroker({ routes: () => ({ echo }) });
    const code = [
      'import os, socket, urllib.parse',
      'proxy = urllib.parse.urlsplit(os.environ["HTTP_PROXY"])',
      's = socket.create_connection((proxy.hostname, proxy.port))',
      'body = b"[" + b"1," * 1500000 + b"1]"  # 3 MB, over the 1 MiB a route takes',
      's.sendall(b"POST /echo HTTP/1.1\\r\\nHost: b\\r\\nContent-Length: %d\\r\\nConnection: close\\r\\n\\r\\n" % len(body))',
      'try:',
      '    s.sendall(body); print("sent")',
      'except OSError as e:',
      '    print("send failed:", type(e).__name__)',
      'answer = b"".join(iter(lambda: s.recv(65536), b""))',
      'print(answer.split(b"\\r\\n")[0].decode(), answer.split(b"\\r\\n\\r\\n")[-1].decode())',
    ].join('\n');
    const result = await ex.execute(code, { tools: broker });
    expect(result.stdout).toBe('sent\nHTTP/1.1 413 Payload Too Large {"error":"the request is over 1048576 bytes"}\n');
  }, 30_000);

  it('without tools the program is told so; the sandbox keeps no socket of an earlier execution', async () => {
    const code = 'import os\nfrom tools import sql\ntry:\n    sql("shop", "SELECT 1")\nexcept Exception as e:\n    print(type(e).__name__, e)\nprint(os.path.exists("/run/code-agent/tools/broker.sock"), "CODE_AGENT_TOOLS" in os.environ, "HTTP_PROXY" in os.environ)';
    const result = await ex.execute(code);
    expect(result.stdout).toBe('SqlError no tools are available to this program (this conversation may not use any)\nFalse False False\n');
    expect(result.toolCalls).toBeUndefined();
  }, 30_000);
});
