/** Network helpers for tests (loopback only). */
import http from 'node:http';
import net from 'node:net';

/** A port on 127.0.0.1 with nothing listening (bound once, then released). */
export async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

/** A loopback HTTP server that answers every request with `body` and counts them (for "never fetched" tests). */
export interface CountingServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Requests received so far. */
  hits(): number;
  close(): Promise<void>;
}

/** Starts a {@link CountingServer} on a free loopback port. */
export async function startCountingServer(body: string): Promise<CountingServer> {
  let hits = 0;
  const server = http.createServer((_req, res) => {
    hits++;
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    hits: () => hits,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
