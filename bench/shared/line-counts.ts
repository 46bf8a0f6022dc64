/**
 * Sizes of the code, read from the source tree (no build, no run): per chat platform
 * (`adapters/<platform>/`), its lines in total, in its rendering files and in its port files, and
 * its markup functions; per folder of `src/agent`, its files and lines. Used by
 * bench/platform-lines.ts and its test.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import ts from 'typescript';

/** The files that compose what people see on a platform (its renderer, in any of its names). */
export const RENDER_FILES = ['renderer.ts', 'views.ts', 'render.ts', 'markup.ts', 'mrkdwn.ts', 'answers.ts'] as const;
/** The files of a platform's two ports (src/chat/incoming-port.ts, port.ts) and its requesters. */
export const PORT_FILES = ['incoming.ts', 'outgoing.ts', 'requesters.ts'] as const;

/** One platform's figures. Lines are physical lines, as `wc -l` counts them. */
export interface PlatformLines {
  platform: string;
  files: number;
  lines: number;
  /** Lines of its {@link RENDER_FILES}. */
  renderLines: number;
  /** Lines of its {@link PORT_FILES}. */
  portLines: number;
  /** Exported functions of its rendering files (declarations, and exported consts holding a function). */
  markupFunctions: number;
  /** Function members of the exported object literals of its rendering files (e.g. a `ThreadMarkup`'s). */
  markupMembers: number;
}

/** One folder's figures: its own `.ts` files (not its subfolders'). */
export interface FolderLines {
  /** The folder, relative to the tree measured (`.` for its root). */
  folder: string;
  files: number;
  lines: number;
}

/** Lines of a text as `wc -l` counts them (newlines, plus a last line without one). */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  const newlines = text.split('\n').length - 1;
  return text.endsWith('\n') ? newlines : newlines + 1;
}

/** Whether a node carries the `export` keyword. */
function exported(node: ts.Node): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
}

/** Whether an expression is a function (an arrow, a function expression), through `as` and `satisfies`. */
function isFunction(e: ts.Expression): boolean {
  if (ts.isAsExpression(e) || ts.isSatisfiesExpression(e) || ts.isParenthesizedExpression(e)) return isFunction(e.expression);
  return ts.isArrowFunction(e) || ts.isFunctionExpression(e);
}

/** The object literal an expression is, through `as` and `satisfies`; undefined when it is none. */
function objectLiteral(e: ts.Expression): ts.ObjectLiteralExpression | undefined {
  if (ts.isAsExpression(e) || ts.isSatisfiesExpression(e) || ts.isParenthesizedExpression(e)) return objectLiteral(e.expression);
  return ts.isObjectLiteralExpression(e) ? e : undefined;
}

/**
 * The exported functions of a TypeScript source, and the function members of its exported object
 * literals.
 */
export function exportedFunctions(source: string, fileName = 'file.ts'): { functions: number; members: number } {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
  let functions = 0;
  let members = 0;
  for (const statement of file.statements) {
    if (!exported(statement)) continue;
    if (ts.isFunctionDeclaration(statement) && statement.body) functions++;
    if (!ts.isVariableStatement(statement)) continue;
    for (const d of statement.declarationList.declarations) {
      if (!d.initializer) continue;
      if (isFunction(d.initializer)) functions++;
      const object = objectLiteral(d.initializer);
      for (const p of object?.properties ?? []) {
        if (ts.isMethodDeclaration(p) || (ts.isPropertyAssignment(p) && isFunction(p.initializer))) members++;
      }
    }
  }
  return { functions, members };
}

/** The `.ts` files directly in a folder (sorted). */
async function tsFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith('.ts')).map((e) => e.name).sort();
}

/**
 * Measures one platform folder.
 * @throws the file system's error when `dir` cannot be read
 */
export async function measurePlatform(dir: string, platform: string): Promise<PlatformLines> {
  const out: PlatformLines = { platform, files: 0, lines: 0, renderLines: 0, portLines: 0, markupFunctions: 0, markupMembers: 0 };
  for (const name of await tsFiles(dir)) {
    const text = await readFile(join(dir, name), 'utf8');
    const lines = countLines(text);
    out.files++;
    out.lines += lines;
    if ((PORT_FILES as readonly string[]).includes(name)) out.portLines += lines;
    if ((RENDER_FILES as readonly string[]).includes(name)) {
      out.renderLines += lines;
      const found = exportedFunctions(text, name);
      out.markupFunctions += found.functions;
      out.markupMembers += found.members;
    }
  }
  return out;
}

/**
 * Files and lines of every folder under `root` that holds `.ts` files (`root` always), each
 * folder counting only its own files; sorted by folder.
 * @throws the file system's error when `root` cannot be read
 */
export async function measureFolders(root: string): Promise<FolderLines[]> {
  const out: FolderLines[] = [];
  const walk = async (dir: string): Promise<void> => {
    const files = await tsFiles(dir);
    let lines = 0;
    for (const name of files) lines += countLines(await readFile(join(dir, name), 'utf8'));
    if (files.length > 0 || dir === root) out.push({ folder: relative(root, dir) || '.', files: files.length, lines });
    const entries = await readdir(dir, { withFileTypes: true });
    for (const e of entries.filter((x) => x.isDirectory()).sort((a, b) => a.name.localeCompare(b.name))) await walk(join(dir, e.name));
  };
  await walk(root);
  return out.sort((a, b) => a.folder.localeCompare(b.folder));
}

/** Right-aligned columns under a header (the first column left-aligned). */
export function table(header: string[], rows: Array<Array<string | number>>): string {
  const cells = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  return cells.map((r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd()).join('\n');
}
