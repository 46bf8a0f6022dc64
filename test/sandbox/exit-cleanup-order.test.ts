/**
 * The exit cleanup (src/sandbox/exit-cleanup.ts) leaves SIGTERM to whoever else listens, whichever
 * registered first: a `once` listener added before it (the CLI's cancel, a bot's graceful stop)
 * removes itself when called, and the cleanup must still see it and not kill the process.
 */
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli } from '../helpers/cli.js';

const CLEANUP = pathToFileURL(resolve('dist/src/sandbox/exit-cleanup.js')).href;

/** Runs a script that listens with `once` (before or after the cleanup hooks in), then sends itself SIGTERM. */
function run(onceFirst: boolean): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string }> {
  const script = `
    const { atExit } = await import(${JSON.stringify(CLEANUP)});
    const listen = () => process.once('SIGTERM', () => { console.log('handled'); setTimeout(() => process.exit(7), 50); });
    ${onceFirst ? 'listen(); atExit("sandbox", () => console.log("cleaned"));' : 'atExit("sandbox", () => console.log("cleaned")); listen();'}
    setTimeout(() => process.kill(process.pid, 'SIGTERM'), 50);
    setTimeout(() => {}, 5000);`;
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.on('close', (code, signal) => done({ code, signal, stdout }));
  });
}

beforeAll(() => requireBuiltCli());

describe('SIGTERM with another listener', () => {
  it.each([true, false])('once listener registered first: %s — it handles the signal, the process is not killed, the cleanup runs at exit', async (onceFirst) => {
    const r = await run(onceFirst);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(7);
    expect(r.stdout).toBe('handled\ncleaned\n');
  });
});
