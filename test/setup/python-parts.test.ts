/** The Debian packages `npm run setup` installs for the sandbox's Python (scripts/python-parts.mjs). */
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ES module without types, run by Node before anything is built
import { debianFonts, debianModules } from '../../scripts/python-parts.mjs';
import { DEFAULT_MODULES, FONT_PACKAGES } from '../../src/sandbox/python-packages.js';

describe('the sandbox parts setup installs', () => {
  it('every Debian package of the default module set, with its module, and the fonts', () => {
    const expected = DEFAULT_MODULES.filter((m) => m.debian).map(({ module, debian }) => ({ module, debian }));
    expect(debianModules('.')).toEqual(expected);
    expect(expected.length).toBeGreaterThanOrEqual(19);
    expect(debianFonts('.')).toEqual([...FONT_PACKAGES]);
  });
});
