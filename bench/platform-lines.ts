/**
 * How large a platform is, and the agent's rooms (issue 42's measures), read from the source tree:
 * per chat platform (every folder of `adapters/` but the terminal and the worker), its files and
 * lines, the lines of its rendering files (renderer.ts, views.ts, render.ts, markup.ts, mrkdwn.ts,
 * answers.ts) and of its port files (incoming.ts, outgoing.ts, requesters.ts), and its markup
 * functions (exported functions of the rendering files; `members`: the function members of their
 * exported objects, e.g. a ThreadMarkup); then the files and lines of each folder of `src/agent`.
 * Prints two tables. Lines are physical lines (`wc -l`).
 *
 * Run: `npm run build && npm run bench:platform-lines [repo dir]` (default: the current directory).
 */
import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { measureFolders, measurePlatform, table } from './shared/line-counts.js';

/** Folders of `adapters/` that are no chat platform. */
const NOT_PLATFORMS = new Set(['cli', 'worker']);

const root = resolve(process.argv[2] ?? '.');
const adapters = join(root, 'adapters');
const names = (await readdir(adapters, { withFileTypes: true })).filter((e) => e.isDirectory() && !NOT_PLATFORMS.has(e.name)).map((e) => e.name).sort();
const platforms = [];
for (const name of names) platforms.push(await measurePlatform(join(adapters, name), name));

console.log('Chat platforms (adapters/<platform>/*.ts)');
console.log(
  table(
    ['platform', 'files', 'lines', 'render lines', 'port lines', 'markup fns', 'members'],
    platforms.map((p) => [p.platform, p.files, p.lines, p.renderLines, p.portLines, p.markupFunctions, p.markupMembers]),
  ),
);
console.log('');
const folders = await measureFolders(join(root, 'src', 'agent'));
console.log('src/agent, per folder (its own files)');
console.log(table(['folder', 'files', 'lines'], [...folders.map((f) => [f.folder, f.files, f.lines]), ['total', folders.reduce((n, f) => n + f.files, 0), folders.reduce((n, f) => n + f.lines, 0)]]));
