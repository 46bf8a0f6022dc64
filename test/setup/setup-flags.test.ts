/** `npm run setup`'s flags: a mistyped one stops setup before it installs or downloads anything. */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const setup = (...flags: string[]) => spawnSync(process.execPath, ['scripts/setup.mjs', ...flags], { encoding: 'utf8', timeout: 20_000 });

describe('setup flags', () => {
  it('refuses an unknown flag with exit 2 and the usage, having done nothing', () => {
    const r = setup('--no-models');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('unknown flag --no-models');
    expect(r.stderr).toContain('--no-model ');
    expect(r.stdout).not.toContain('[setup]'); // no step ran
  });

  it('prints the usage for --help and exits 0', () => {
    const r = setup('--help');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/--gpu\[=cuda\|vulkan\|all\][\s\S]*--no-synapse[\s\S]*--config=F/);
  });

  it('refuses a GPU kind it does not know', () => {
    expect(setup('--gpu=metal').status).toBe(2);
  });
});
