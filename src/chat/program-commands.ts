/**
 * The team program commands in chat, once for every platform: `/programs`, `/program <name>
 * [param=value …]`, `/program <name> show`, `/program <name> remove`, `/program save <name>` (in a
 * run's thread: Matrix's `!program save <name>`), and the reply `save program <name>` in a run's
 * thread (what the "Save as team program" button asks for). The entry (ingress.ts) reads the
 * command here: a list, a show or a remove is answered at once from the store; a run and a save
 * become jobs (`program_run`, `program_save`), checked first so that a refusal costs nothing.
 */
import { InputError } from '../config/errors.js';
import type { TeamProgram } from '../history/programs.js';
import type { MemoryReply } from '../memory/commands.js';
import type { TeamPrograms } from '../programs/team-programs.js';
import { chatSpelling, programShowText, programsListText } from '../programs/text.js';
import type { CommandNames } from './incoming-port.js';

/** A program command, read. */
export type ProgramCommand =
  | { kind: 'list' }
  | { kind: 'usage' }
  | { kind: 'save'; name: string }
  | { kind: 'show'; name: string }
  | { kind: 'remove'; name: string }
  | { kind: 'run'; name: string; args: string };

/** Reads `/program`'s text (see the module comment). */
export function parseProgramCommand(text: string): ProgramCommand {
  const rest = text.trim();
  if (rest === '' || rest === 'list') return { kind: 'list' };
  const [first, ...others] = rest.split(/\s+/);
  const tail = rest.slice(first!.length).trim();
  if (first!.toLowerCase() === 'save') return others.length === 1 ? { kind: 'save', name: others[0]! } : { kind: 'usage' };
  if (/^show$/i.test(tail)) return { kind: 'show', name: first! };
  if (/^(remove|delete)$/i.test(tail)) return { kind: 'remove', name: first! };
  return { kind: 'run', name: first!, args: tail };
}

/** A program run's text (`program_run`): the name, then the `param=value` words. */
export function splitRun(text: string): { name: string; args: string } {
  const rest = text.trim();
  const name = rest.split(/\s+/, 1)[0] ?? '';
  return { name, args: rest.slice(name.length).trim() };
}

/** The name a reply in a run's thread asks to save it under (`save program <name>`, `save as program <name>`), else undefined. */
export function saveReplyName(text: string): string | undefined {
  const m = /^\s*save\s+(?:it\s+)?(?:as\s+)?(?:a\s+)?(?:team\s+)?program\s+(?:as\s+)?`?([A-Za-z0-9][A-Za-z0-9-]{0,47})`?\s*[.!]?\s*$/i.exec(text);
  return m?.[1];
}

/** How to use the commands, e.g. for `/program` misused. */
export function programUsage(names: CommandNames): string {
  const p = names.program;
  return `Use \`${names.programs}\` to list this channel's team programs, \`${p} <name> [param=value …]\` to run one (files given with it are its input files), \`${p} <name> show\` to see its code, inputs, parameters and versions, \`${p} <name> remove\` to remove it. To save a finished run, click its "Save as team program" button or reply in its thread with \`save program <name>\`.`;
}

/** What the button asks (in a run's thread, where every platform takes a reply). */
export const SAVE_HINT =
  'To save this run as a team program, reply in its thread with `save program <name>` (lower-case letters, digits and dashes, e.g. `save program revenue-by-region`). Anyone in the channel can then run it by name, with no LLM call.';

/** `/programs`: the live programs, as a title and lines. */
export async function listAnswer(programs: TeamPrograms, conversation: string, names: CommandNames): Promise<MemoryReply> {
  return programsListText(await programs.list(conversation), chatSpelling(names.program));
}

/** `/program <name> show`: the current version (title), its request, inputs, parameters, versions and code (lines). */
export async function showAnswer(programs: TeamPrograms, conversation: string, name: string, names: CommandNames): Promise<MemoryReply> {
  const program = await programs.get(conversation, name);
  if (!program) return notFound(await programs.list(conversation), name, names);
  const shown = programShowText(program);
  const lines = shown.sections.flatMap((s) => [`${s.title}:`, ...s.lines.map((l) => `  ${l}`), '']);
  return { title: shown.title, lines: [...lines, 'Code:', ...shown.code.split('\n')] };
}

/** `/program <name> remove`: removed with who and when (kept for the audit). */
export async function removeAnswer(programs: TeamPrograms, conversation: string, name: string, by: { id: string; name?: string }, names: CommandNames): Promise<MemoryReply> {
  const removed = await programs.remove(conversation, name, by);
  if (!removed) return notFound(await programs.list(conversation), name, names);
  const v = removed.versions.at(-1)!;
  return { title: `🗑️ Removed team program \`${removed.name}\` (v${v.version}). It is no longer listed nor runnable; who removed it and when is kept. The name can be saved again.`, lines: [] };
}

function notFound(programs: TeamProgram[], name: string, names: CommandNames): MemoryReply {
  const known = programs.length ? `; its programs are ${programs.map((p) => `\`${p.name}\``).join(', ')}` : ` (it has none yet; \`${names.programs}\` lists them)`;
  return { title: `No team program \`${name.slice(0, 60)}\` in this channel${known}.`, lines: [], refused: true };
}

/**
 * Whether a run of a program can start (it exists, its values are read): undefined, else the refusal.
 * @throws the store's errors
 */
export async function runRefusal(programs: TeamPrograms, conversation: string, name: string, args: string): Promise<string | undefined> {
  try {
    await programs.prepare(conversation, name, args);
    return undefined;
  } catch (err) {
    if (err instanceof InputError) return err.message;
    throw err;
  }
}
