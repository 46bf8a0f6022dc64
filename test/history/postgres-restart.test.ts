/**
 * A PostgreSQL restart does not take a process with a history store on it down: the pool's idle
 * connections get a FATAL message when the server shuts down (pg emits `error` on the pool), and
 * the store logs it and reconnects on its next query. Runs the store in a child process (the built
 * code), so that a crash is seen as its exit code.
 */
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { requireBuiltCli } from '../helpers/cli.js';
import { startPostgres, type TestServer } from '../helpers/servers.js';

// opens the store, saves a run, says "ready"; on "go" saves a second run and prints the listed ids
const CHILD = `
import { createInterface } from 'node:readline';
import { KeyvHistoryStore } from './dist/src/history/keyv-store.js';
const store = await KeyvHistoryStore.open(process.argv[1]);
const run = (id) => ({ id, conversationId: 'c', requirement: id, status: 'success', attempts: [], createdAt: new Date().toISOString(), updatedAt: new Date().toISOString() });
await store.saveRun(run('before'));
await store.listRuns('c', 10);
process.stdout.write('ready\\n');
for await (const line of createInterface({ input: process.stdin })) if (line === 'go') break;
await store.saveRun(run('after'));
const ids = (await store.listRuns('c', 10)).map((r) => r.id);
await store.close();
process.stdout.write(JSON.stringify(ids) + '\\n');
`;

let pg: (TestServer & { restart(): Promise<void> }) | undefined;
afterEach(async () => {
  await pg?.stop();
  pg = undefined;
});

describe('history store on PostgreSQL', () => {
  it('survives a PostgreSQL restart: the lost idle connections are logged, the next query reconnects', async () => {
    requireBuiltCli();
    pg = await startPostgres();
    const child = spawn(process.execPath, ['--input-type=module', '-e', CHILD, pg.url], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const until = Date.now() + 20_000;
    while (!stdout.includes('ready') && child.exitCode === null && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(stdout, stderr).toContain('ready');

    await pg.restart();
    // the idle connections' errors arrive while the server shuts down; the process must still be alive
    await new Promise((r) => setTimeout(r, 300));
    expect(child.exitCode, stderr).toBeNull();
    child.stdin.end('go\n');
    expect(await exited, stderr).toBe(0);
    expect(JSON.parse(stdout.split('\n')[1]!)).toEqual(['after', 'before']);
    expect(stderr).toMatch(/history store \(PostgreSQL\): an idle connection was lost \(.*terminating connection.*\)/);
  }, 60_000);
});
