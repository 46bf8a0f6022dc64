/**
 * bench/platform-lines.ts's counting: lines as `wc -l` counts them, the rendering and port files of
 * a platform told apart, its markup functions found by the TypeScript parser (not by a pattern),
 * and the agent's folders each counting their own files.
 */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { countLines, exportedFunctions, measureFolders, measurePlatform, table } from '../../bench/shared/line-counts.js';

describe('line counts', () => {
  it('counts lines as wc -l does, a last line without its newline included', () => {
    expect(countLines('')).toBe(0);
    expect(countLines('a\n')).toBe(1);
    expect(countLines('a\nb')).toBe(2);
    expect(countLines('a\n\nb\n')).toBe(3);
  });

  it('finds exported functions and the function members of exported objects, not private ones nor strings that look like them', () => {
    const source = [
      'export function a(): void {}',
      'export async function b(): Promise<void> {}',
      'export declare function c(): void;',
      'function hidden() {}',
      'export const d = (x: number) => x;',
      'export const e = function () { return 1; };',
      'const f = () => 1;',
      'export const g = 3;',
      "export const text = 'export function fake() {}';",
      'export const markup = { one: () => 1, two(x: number) { return x; }, three: 3, four: function () {} } satisfies object;',
      'const privateMarkup = { five: () => 5 };',
    ].join('\n');
    expect(exportedFunctions(source)).toEqual({ functions: 4, members: 3 });
  });

  it('measures a platform: totals, rendering files, port files, markup functions', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'platform-lines-'));
    await writeFile(join(dir, 'markup.ts'), 'export function a() {}\nexport const m = { b: () => 1 };\n');
    await writeFile(join(dir, 'answers.ts'), 'export const c = () => 2;\n');
    await writeFile(join(dir, 'incoming.ts'), 'export function notMarkup() {}\n\n\n');
    await writeFile(join(dir, 'outgoing.ts'), 'x\n');
    await writeFile(join(dir, 'bot.ts'), 'export function d() {}\n');
    await writeFile(join(dir, 'notes.md'), 'not code\n');
    expect(await measurePlatform(dir, 'p')).toEqual({ platform: 'p', files: 5, lines: 8, renderLines: 3, portLines: 4, markupFunctions: 2, markupMembers: 1 });
  });

  it("measures folders by their own files, leaving out folders with no TypeScript", async () => {
    const root = await mkdtemp(join(tmpdir(), 'agent-folders-'));
    await mkdir(join(root, 'loop', 'inner'), { recursive: true });
    await mkdir(join(root, 'assets'));
    await writeFile(join(root, 'a.ts'), '1\n2\n');
    await writeFile(join(root, 'loop', 'b.ts'), '1\n');
    await writeFile(join(root, 'loop', 'c.ts'), '1\n2\n3\n');
    await writeFile(join(root, 'loop', 'inner', 'd.ts'), '1\n');
    await writeFile(join(root, 'assets', 'x.py'), 'print(1)\n');
    expect(await measureFolders(root)).toEqual([
      { folder: '.', files: 1, lines: 2 },
      { folder: 'loop', files: 2, lines: 4 },
      { folder: join('loop', 'inner'), files: 1, lines: 1 },
    ]);
  });

  it('prints aligned columns', () => {
    expect(table(['name', 'n'], [['ab', 1], ['c', 100]])).toBe('name    n\nab      1\nc     100');
  });
});
