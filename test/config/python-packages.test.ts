/** `sandbox.python_packages`: pins validated with errors by path; the shipped config.yaml has the key. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { parsePin, pythonSiteDirs } from '../../src/sandbox/python-packages.js';
import { parseDocument } from 'yaml';

const HASH = `--hash=sha256:${'ab'.repeat(32)}`;

describe('sandbox.python_packages', () => {
  it('defaults to none, and the shipped config.yaml lists the key', () => {
    expect(parseConfig({}, {}).sandbox.python_packages).toEqual([]);
    const shipped = parseDocument(readFileSync('config.yaml', 'utf8')).toJS() as { sandbox: Record<string, unknown> };
    expect(shipped.sandbox.python_packages).toEqual([]);
  });

  it('accepts name==version pins, with hashes', () => {
    const pins = ['tqdm==4.66.4', `holidays==0.50 ${HASH}`, 'python-dateutil==2.9.0.post0', `zope.interface==6.4 ${HASH} ${HASH}`];
    expect(parseConfig({ sandbox: { python_packages: pins } }, {}).sandbox.python_packages).toEqual(pins);
    expect(parsePin(`holidays==0.50 ${HASH}`)).toEqual({ name: 'holidays', version: '0.50' });
  });

  it('rejects anything but a pin, by its path', () => {
    for (const bad of ['tqdm', 'tqdm>=4', 'tqdm==4.66 ; rm -rf /', '-e git+https://example.com/x.git', 'tqdm==4.66 --hash=md5:abc', '--index-url=http://evil/ tqdm==1']) {
      expect(() => parseConfig({ sandbox: { python_packages: [bad] } }, {}), bad).toThrow(/sandbox\.python_packages\.0: expected a pin like "name==1\.2\.3"/);
    }
    expect(() => parseConfig({ sandbox: { python_packages: 'tqdm==1' } }, {})).toThrow(/sandbox\.python_packages/);
  });

  it('a changed pin gets another site dir; the order of pins does not matter', () => {
    const env = { CODE_AGENT_PYTHON_DIR: '/opt/py' };
    const a = pythonSiteDirs(['a==1', 'b==2'], env);
    expect(a.wheels).toMatch(/^\/opt\/py\/wheels-[0-9a-f]{12}$/);
    expect(a.extra).toMatch(/^\/opt\/py\/extra-[0-9a-f]{12}$/);
    expect(pythonSiteDirs(['b==2', 'a==1'], env).extra).toBe(a.extra);
    expect(pythonSiteDirs(['a==1', 'b==3'], env).extra).not.toBe(a.extra);
    expect(pythonSiteDirs([], env).extra).toBeUndefined();
  });
});
