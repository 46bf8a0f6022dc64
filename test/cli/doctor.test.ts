/** `code-agent doctor`: what isolation is active here and why (real sandbox). */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runDoctor } from '../../adapters/cli/doctor.js';
import { buildProgram } from '../../adapters/cli/main.js';
import { parseConfig } from '../../src/config/load.js';

async function doctor(sandbox: Record<string, unknown>, json = false): Promise<{ code: number; text: string }> {
  const out = new PassThrough();
  let text = '';
  out.on('data', (c: Buffer) => (text += c.toString()));
  const code = await runDoctor(parseConfig({ sandbox: { warm_pool: 0, ...sandbox } }, {}), { json }, out);
  return { code, text };
}

describe('code-agent doctor', () => {
  it('is a command of the CLI', () => {
    expect(buildProgram().commands.map((c) => c.name())).toContain('doctor');
  });

  it('its help names the Python packages and fonts it reports', () => {
    const help = buildProgram().commands.find((c) => c.name() === 'doctor')!.helpInformation().replace(/\s+/g, ' ');
    expect(help).toMatch(/sandbox's Python offers \(packages and versions, the pinned PyPI packages, your own pins, fonts\)/);
  });

  it('prints namespaces, cgroups, disk and warm pool, each on or off with why', async () => {
    const { code, text } = await doctor({});
    expect(code).toBe(0);
    expect(text).toMatch(/namespaces\s+on/);
    expect(text).toMatch(/cgroups\s+on\s+\((v1|v2)\) a cgroup per run/); // CI runs as root with writable cgroups
    expect(text).toMatch(/disk\s+on\s+the work dir is a size-limited tmpfs/);
    expect(text).toMatch(/warm pool\s+off/);
    expect(text).toMatch(/cold start\s+on\s+1 slot\(s\) for cold starts, work dir and cgroup made ahead/);
  });

  it('says when the fallback is active, and why (config forcing it)', async () => {
    const { code, text } = await doctor({ cgroups: 'off', warm_pool: 1 }, true);
    expect(code).toBe(0);
    const report = JSON.parse(text) as { cgroups: { active: boolean; detail: string }; warmPool: { size: number }; preparedSlots: { size: number } };
    expect(report.cgroups.active).toBe(false);
    expect(report.cgroups.detail).toContain('sandbox.cgroups: off');
    expect(report.warmPool.size).toBe(1);
    expect(report.preparedSlots.size).toBe(1); // the tmpfs work dir is still made ahead
  });

  it('refuses a python the sandbox cannot see, saying why (exit 2)', async () => {
    const { code, text } = await doctor({ python: '/nonexistent/python3' });
    expect(code).toBe(2);
    expect(text).toMatch(/unavailable: .*\/usr/);
  });
});
