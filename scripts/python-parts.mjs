// The sandbox's Debian parts that `npm run setup` installs, read from src/sandbox/python-packages.ts
// (setup runs before the build, so it reads the TypeScript source): the Debian packages of the
// default module set (with the module that proves each is there) and the font packages.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const source = (root) => readFileSync(join(root, 'src', 'sandbox', 'python-packages.ts'), 'utf8');

/** `[{ module, debian }]` of every `{ module: 'x', dist: '…', debian: 'python3-x' }` entry of DEFAULT_MODULES. */
export function debianModules(root) {
  return [...source(root).matchAll(/\{ module: '([\w.]+)', dist: '[^']+', debian: '([\w.-]+)' \}/g)].map((m) => ({ module: m[1], debian: m[2] }));
}

/** The package names of FONT_PACKAGES. */
export function debianFonts(root) {
  const list = /FONT_PACKAGES: readonly string\[\] = \[([^\]]*)\]/.exec(source(root))?.[1] ?? '';
  return [...list.matchAll(/'([\w.-]+)'/g)].map((m) => m[1]);
}
