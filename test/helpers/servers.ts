/**
 * Real database servers for tests, from the Debian packages `npm run setup` installs:
 * redis-server and PostgreSQL, each started on a free loopback port in its own temp dir and
 * stopped (and the dir removed) by `stop()`. PostgreSQL refuses to run as root, so as root its
 * processes run as the `postgres` user (created by the Debian package) through `setpriv`.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import net from 'node:net';
import pg from 'pg';
import { closedPort } from './net.js';

/** A running server. */
export interface TestServer {
  /** e.g. `redis://127.0.0.1:6390` or `postgresql://postgres@127.0.0.1:5490/postgres` */
  url: string;
  port: number;
  /** Stops the server and removes its dir. */
  stop(): Promise<void>;
}

const REDIS = '/usr/bin/redis-server';

/** The newest PostgreSQL server binaries folder, e.g. `/usr/lib/postgresql/15/bin`. */
function postgresBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'postgres'))) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest) throw new Error(`PostgreSQL is not installed (no ${root}/*/bin/postgres): run "npm run setup" as root (Debian package postgresql)`);
  return join(root, newest, 'bin');
}

/** Waits until `port` on 127.0.0.1 accepts TCP connections, or throws after `timeoutMs` with the process's output. */
async function waitForPort(port: number, child: ChildProcess, output: () => string, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}: ${output()}`);
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the server did not listen on ${port} within ${timeoutMs} ms: ${output()}`);
}

/** Listening is not yet accepting: waits until a query succeeds (the startup has finished). */
async function waitForQueries(url: string, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return;
    } catch (err) {
      if (Date.now() > until) throw err;
      await new Promise((r) => setTimeout(r, 50));
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}

/** Stops a child with a signal and waits for it to exit (SIGKILL after `killAfterMs`). */
export async function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM', killAfterMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  await exited;
  clearTimeout(timer);
}

function capture(child: ChildProcess): () => string {
  let text = '';
  child.stdout?.on('data', (d) => (text = (text + d).slice(-4000)));
  child.stderr?.on('data', (d) => (text = (text + d).slice(-4000)));
  return () => text;
}

/**
 * Starts redis-server (no persistence) on a free port, or on `port` (a stopped server's, to bring it back).
 * @throws when redis-server is missing or does not start.
 */
export async function startRedis(port?: number): Promise<TestServer> {
  if (!existsSync(REDIS)) throw new Error(`${REDIS} is missing: run "npm run setup" as root (Debian package redis-server)`);
  const dir = mkdtempSync(join(tmpdir(), 'redis-test-'));
  port ??= await closedPort();
  const child = spawn(REDIS, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = capture(child);
  try {
    await waitForPort(port, child, output);
  } catch (err) {
    await stopChild(child, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      await stopChild(child, 'SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Starts a throwaway PostgreSQL cluster (trust auth on loopback, no fsync) on a free port. */
export async function startPostgres(): Promise<TestServer & { restart(): Promise<void>; halt(): Promise<void>; resume(): Promise<void> }> {
  const bin = postgresBin();
  const dir = mkdtempSync(join(tmpdir(), 'pg-test-'));
  const data = join(dir, 'data');
  const asRoot = userInfo().uid === 0;
  // as root: run as the postgres user, without a parent that would have to forward signals
  const wrap = (cmd: string, args: string[]): [string, string[]] =>
    asRoot ? ['setpriv', ['--reuid=postgres', '--regid=postgres', '--init-groups', cmd, ...args]] : [cmd, args];
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  const [initCmd, initArgs] = wrap(join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C']);
  execFileSync(initCmd, initArgs, { stdio: 'pipe' });
  const port = await closedPort();
  const [cmd, args] = wrap(join(bin, 'postgres'), [
    '-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off',
    '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=100',
  ]);
  let child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = capture(child);
  try {
    await waitForPort(port, child, output);
    await waitForQueries(`postgresql://postgres@127.0.0.1:${port}/postgres`);
  } catch (err) {
    await stopChild(child, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    port,
    /** A fast shutdown: the server is gone until {@link resume}. */
    async halt() {
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGINT');
      await exited;
    },
    /** The same server again, on the same port and data, after {@link halt}. */
    async resume() {
      child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      output = capture(child);
      await waitForPort(port, child, output);
      await waitForQueries(`postgresql://postgres@127.0.0.1:${port}/postgres`);
    },
    /** A fast shutdown, then the same server again on the same port and data. */
    async restart() {
      // a fast shutdown (SIGINT), as a database restart does: every session gets a FATAL message
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGINT');
      await exited;
      child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      output = capture(child);
      await waitForPort(port, child, output);
      await waitForQueries(`postgresql://postgres@127.0.0.1:${port}/postgres`);
    },
    async stop() {
      // smart shutdown (SIGTERM): sessions that are closing end normally. A fast shutdown would send
      // each of them a FATAL message, which a pg client already ended no longer has a listener for.
      // Idle pooled connections close on their own after pg's idle timeout (10 s).
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGTERM');
      const fast = setTimeout(() => child.kill('SIGINT'), 15_000);
      await exited;
      clearTimeout(fast);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
