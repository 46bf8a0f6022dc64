/** Shared helpers of the tools tests: real HTTP servers on 127.0.0.1 that record what reached them. */
import { generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import forge from 'node-forge';
import type { AddressInfo } from 'node:net';
import { afterAll } from 'vitest';
import { httpToolSchema } from '../../src/tools/config.js';
import { HttpPolicy, type HttpPolicyOptions } from '../../src/tools/http/policy.js';
import { ToolBroker } from '../../src/tools/broker.js';

/** A request as the server saw it. */
export interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
}

/** A loopback server that records every request. */
export interface TargetServer {
  port: number;
  /** `127.0.0.1:<port>` */
  host: string;
  url: string;
  seen: Seen[];
  close(): Promise<void>;
}

const servers: TargetServer[] = [];
afterAll(async () => {
  for (const s of servers.splice(0)) await s.close();
});

/** Starts a server on a free loopback port; `handle` answers (default: `hello from <port>`). */
export async function targetServer(handle?: (req: http.IncomingMessage, res: http.ServerResponse, port: number) => void): Promise<TargetServer> {
  const seen: Seen[] = [];
  let port = 0;
  const server = http.createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    if (handle) handle(req, res, port);
    else res.end(`hello from ${port}`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
  const target: TargetServer = {
    port,
    host: `127.0.0.1:${port}`,
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
  servers.push(target);
  return target;
}

/** A broker with the HTTP tool configured as `http` (the `tools.http` section, validated). */
export function httpBroker(http: Record<string, unknown>, options: HttpPolicyOptions = {}): ToolBroker {
  return new ToolBroker({ http: new HttpPolicy(httpToolSchema.parse(http), options) });
}

/** A self-signed certificate for 127.0.0.1 (PEM), for an https target. */
export function selfSigned(): { key: string; cert: string } {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
  const key = forge.pki.privateKeyFromPem(privateKey) as forge.pki.rsa.PrivateKey;
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  cert.serialNumber = '01';
  cert.validity.notBefore = new Date(Date.now() - 3600_000);
  cert.validity.notAfter = new Date(Date.now() + 24 * 3600_000);
  const name = [{ name: 'commonName', value: '127.0.0.1' }];
  cert.setSubject(name);
  cert.setIssuer(name);
  cert.setExtensions([{ name: 'basicConstraints', cA: true }, { name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }]);
  cert.sign(key, forge.md.sha256.create());
  return { key: privateKey, cert: forge.pki.certificateToPem(cert) };
}

/** An https server on a free loopback port with a self-signed certificate; `cert` is what to trust. */
export async function httpsTargetServer(handle?: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<TargetServer & { cert: string }> {
  const seen: Seen[] = [];
  const pair = selfSigned();
  const server = https.createServer(pair, (req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    if (handle) handle(req, res);
    else res.end('hello over tls');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const target = {
    port,
    host: `127.0.0.1:${port}`,
    url: `https://127.0.0.1:${port}`,
    seen,
    cert: pair.cert,
    close: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
  servers.push(target);
  return target;
}
