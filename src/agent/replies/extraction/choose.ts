/**
 * Several blocks in a reply: the program is chosen, not every block pasted in order (rule 5 of
 * `../extract.ts`): superseded blocks dropped, an example of use dropped when the implementation
 * already acts, the rest in dependency order.
 */
import { stringMask } from './python-lines.js';

/** Chooses the blocks that make the program and joins them (rule 5). */
export function combine(codes: string[]): string {
  const current = codes.filter((code, i) => {
    const later = codes.slice(i + 1);
    if (later.some((l) => l.includes(code))) return false;
    const names = topLevelNames(code);
    if (names.size === 0) return true;
    return !later.some((l) => {
      const redefined = topLevelNames(l);
      return [...names].every((n) => redefined.has(n));
    });
  });
  const blocks = current.map((code) => ({ code, defines: topLevelNames(code), acts: actsAtTopLevel(code) }));
  /** The other blocks defining a function or class this block calls without defining it. */
  const needs = (b: (typeof blocks)[number]) =>
    blocks.filter((o) => o !== b && [...o.defines].some((n) => !b.defines.has(n) && callsName(b.code, n)));
  const kept = blocks.filter((b) => !(b.defines.size === 0 && needs(b).some((o) => o.acts)));
  // dependency order: repeatedly take the first block whose needed blocks are already placed
  const ordered: typeof kept = [];
  const pending = [...kept];
  while (pending.length > 0) {
    const i = pending.findIndex((b) => needs(b).every((o) => ordered.includes(o) || !pending.includes(o)));
    ordered.push(...pending.splice(i === -1 ? 0 : i, 1));
  }
  return ordered.map((b) => b.code).join('\n\n');
}

/** The names of the functions and classes the code defines at top level. */
function topLevelNames(code: string): Set<string> {
  const names = new Set<string>();
  for (const m of code.matchAll(/^(?:async[ \t]+def|def|class)[ \t]+(\w+)/gm)) names.add(m[1]!);
  return names;
}

/** `name(` used as a call or `name.` as an object, outside a definition of it. */
function callsName(code: string, name: string): boolean {
  return new RegExp(`(?<![\\w.])${name}\\s*[(.]`).test(code.replace(new RegExp(`^(?:async[ \\t]+def|def|class)[ \\t]+${name}\\b`, 'gm'), ''));
}

/**
 * True when a line at column 0 does something: a call or a statement that runs code (not a
 * definition, import, decorator, constant, comment or docstring).
 */
function actsAtTopLevel(code: string): boolean {
  const lines = code.split('\n');
  const inString = stringMask(lines);
  return lines.some((line, i) => {
    if (inString[i] || !/^[A-Za-z_]/.test(line) || /^(?:(?:async[ \t]+)?def|class|import|from)\b/.test(line)) return false;
    return line.includes('(') || /^(?:if|for|while|with|try|assert|raise)\b/.test(line);
  });
}
