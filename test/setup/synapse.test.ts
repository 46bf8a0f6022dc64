/** The tests' Synapse that `npm run setup` installs (scripts/synapse.mjs): pinned, and made once. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SYNAPSE_VERSION, installSynapse, requirementsFile, synapsePython, synapseVenv } from '../../scripts/synapse.mjs';
import { tempDir } from '../helpers/temp-dir.js';

describe("the tests' Synapse", () => {
  it('every requirement is pinned to one version with its sha256, matrix-synapse at SYNAPSE_VERSION', () => {
    const entries = readFileSync(requirementsFile, 'utf8')
      .split('\n')
      .filter((l) => !l.startsWith('#'))
      .join('\n')
      .split(/\n(?=\S)/)
      .filter((e) => e.trim());
    expect(entries.length).toBeGreaterThan(40);
    const names = entries.map((entry) => {
      const [pin = '', ...hashes] = entry.split(/\s+\\\s+/);
      expect(pin).toMatch(/^[A-Za-z0-9._-]+==[A-Za-z0-9.+!_-]+$/);
      expect(hashes.length).toBeGreaterThan(0);
      for (const h of hashes) expect(h.trim()).toMatch(/^--hash=sha256:[0-9a-f]{64}$/);
      return pin.split('==')[0]!.toLowerCase();
    });
    expect(new Set(names).size).toBe(names.length);
    expect(entries.some((e) => e.startsWith(`matrix-synapse==${SYNAPSE_VERSION} `))).toBe(true);
  });

  it('lives under CODE_AGENT_SYNAPSE_DIR, and a finished virtualenv is not made again', () => {
    const dir = tempDir('synapse-dir-');
    const env = { CODE_AGENT_SYNAPSE_DIR: dir };
    const venv = synapseVenv(env);
    expect(venv).toMatch(new RegExp(`^${dir}/matrix-synapse-${SYNAPSE_VERSION.replace(/\./g, '\\.')}-[0-9a-f]{12}$`));
    expect(synapsePython(env)).toBeUndefined();
    mkdirSync(venv);
    writeFileSync(join(venv, '.code-agent-complete'), '');
    expect(synapsePython(env)).toBe(join(venv, 'bin', 'python'));
    const lines: string[] = [];
    expect(installSynapse((l) => lines.push(l), env)).toEqual({ venv, installed: false });
    expect(lines).toEqual([]);
  });

  it('says where it cannot write', () => {
    expect(() => installSynapse(() => undefined, { CODE_AGENT_SYNAPSE_DIR: '/proc/code-agent-synapse' })).toThrow(
      /cannot write \/proc\/code-agent-synapse .*CODE_AGENT_SYNAPSE_DIR/,
    );
  });
});
