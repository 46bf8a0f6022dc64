#!/usr/bin/env node
// Writes scripts/synapse-requirements.txt: matrix-synapse at SYNAPSE_VERSION and every package it
// needs, each pinned, with the sha256 of the wheel pip picks on Debian bookworm (CPython 3.11,
// glibc 2.36) for x86_64 and for aarch64. `npm run setup` installs exactly that file
// (scripts/synapse.mjs). Run it by hand after changing SYNAPSE_VERSION: `node scripts/synapse-lock.mjs`.
// It asks PyPI through Debian's python3 and pip (python3-venv), in a throwaway venv.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SYNAPSE_VERSION, requirementsFile } from './synapse.mjs';

const GLIBC_MINOR = 36; // bookworm's glibc 2.36
const ARCHES = { x86_64: 5, aarch64: 17 }; // the oldest manylinux glibc minor pip accepts for each
const LEGACY = { 17: 'manylinux2014', 12: 'manylinux2010', 5: 'manylinux1' };

/** The platform tags pip itself would accept on bookworm, most specific first (packaging.tags). */
function platformTags(arch) {
  const tags = [];
  for (let minor = GLIBC_MINOR; minor >= ARCHES[arch]; minor--) {
    tags.push(`manylinux_2_${minor}_${arch}`);
    if (LEGACY[minor]) tags.push(`${LEGACY[minor]}_${arch}`);
  }
  return [...tags, `linux_${arch}`];
}

/** `{ name → { version, sha256 } }` of what pip would install for `arch`. */
function resolve(python, arch, dir) {
  const report = join(dir, `report-${arch}.json`);
  execFileSync(python, [
    '-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--dry-run', '--ignore-installed',
    '--only-binary=:all:', '--python-version', '3.11', '--implementation', 'cp', '--abi', 'cp311',
    ...platformTags(arch).flatMap((t) => ['--platform', t]), '--target', join(dir, 'target'),
    '--report', report, `matrix-synapse==${SYNAPSE_VERSION}`,
  ], { stdio: 'inherit', env: { ...process.env, PIP_FIND_LINKS: '' } });
  const out = new Map();
  for (const item of JSON.parse(readFileSync(report, 'utf8')).install) {
    out.set(item.metadata.name, { version: item.metadata.version, sha256: item.download_info.archive_info.hashes.sha256 });
  }
  return out;
}

const dir = mkdtempSync(join(tmpdir(), 'synapse-lock-'));
try {
  execFileSync('/usr/bin/python3', ['-m', 'venv', join(dir, 'venv')], { stdio: 'inherit' });
  const python = join(dir, 'venv', 'bin', 'python');
  const byArch = Object.keys(ARCHES).map((arch) => ({ arch, pins: resolve(python, arch, dir) }));
  const names = [...new Set(byArch.flatMap(({ pins }) => [...pins.keys()]))].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
  const lines = names.map((name) => {
    const found = byArch.map(({ arch, pins }) => ({ arch, pin: pins.get(name) }));
    const versions = new Set(found.map((f) => f.pin?.version));
    if (versions.size !== 1 || versions.has(undefined)) throw new Error(`${name}: not one version on every arch (${found.map((f) => `${f.arch} ${f.pin?.version}`).join(', ')})`);
    const hashes = [...new Set(found.map((f) => f.pin.sha256))];
    return [`${name}==${found[0].pin.version}`, ...hashes.map((h) => `    --hash=sha256:${h}`)].join(' \\\n');
  });
  const header = [
    `# matrix-synapse ${SYNAPSE_VERSION} and what it needs, for the tests' homeserver (npm run setup installs it).`,
    '# Written by scripts/synapse-lock.mjs: do not edit; change SYNAPSE_VERSION in scripts/synapse.mjs and run it.',
    '# One wheel per package and architecture (CPython 3.11 on Debian bookworm, x86_64 and aarch64).',
  ];
  writeFileSync(requirementsFile, `${header.join('\n')}\n${lines.join('\n')}\n`);
  process.stdout.write(`${requirementsFile}: ${names.length} packages\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
