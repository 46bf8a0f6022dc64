/**
 * A new request in other words that a team program already answers: found by retrieval on the
 * request and its files (as channel memory finds examples: src/memory/similarity.ts), then one
 * short LLM call that says whether the best candidate answers it and fills its parameters as JSON,
 * or says "not this". Nothing here runs a program: the caller offers it (or runs it at once) and
 * always names it in the thread.
 */
import type { ProgramParameter, ProgramVersion, TeamProgram } from '../history/programs.js';
import type { ChatMessage, LlmProvider, TokenUsage } from '../llm/types.js';
import { cosineScores } from '../memory/similarity.js';
import type { ParameterValue } from './parameters.js';

/** Least retrieval score (cosine, 0–1) for a program to be put to the LLM at all. */
export const MIN_PROGRAM_SCORE = 0.2;

/** Most candidates put to the LLM, best first (each costs a short call). */
export const MAX_PROGRAM_CANDIDATES = 2;

/** Longest reply of the confirming call, in tokens (one small JSON object). */
const CONFIRM_MAX_TOKENS = 120;

/** What a request is matched on: its text, and its files' names and columns. */
export interface ProgramQuery {
  request: string;
  /** The names of the files given with it (and of the thread's workspace). */
  fileNames: string[];
  /** Their columns, when profiled. */
  columns?: string[];
}

/** A program with its retrieval score. */
export interface ScoredProgram {
  program: TeamProgram;
  score: number;
}

/** A program the LLM confirmed for a request, with the parameter values the request sets. */
export interface ProgramMatch {
  program: TeamProgram;
  version: ProgramVersion;
  /** Only the parameters the request sets; the others keep their defaults. */
  params: Record<string, ParameterValue>;
  score: number;
  usage: TokenUsage;
}

/** The text a program is retrieved by: its name, every version's request, its inputs' names and columns, its parameters' names. */
export function programText(program: TeamProgram): string {
  const current = program.versions.at(-1)!;
  const requests = [...new Set(program.versions.map((v) => v.request))];
  const files = current.inputs.files.map((f) => [f.name, ...(f.fields ?? []).map((x) => String(x.name))].join(' '));
  return [program.name.replace(/-/g, ' '), ...requests, ...files, ...current.parameters.map((p) => p.name)].join('\n');
}

/**
 * Ranks the live programs of a conversation by how like the request (and its files) they are, best
 * first; those under {@link MIN_PROGRAM_SCORE} left out. A program whose saved files are all given by
 * name scores on its files too; one that needs a file the request does not give (and the request
 * gives files) is left out.
 */
export function rankPrograms(programs: TeamProgram[], query: ProgramQuery): ScoredProgram[] {
  const live = programs.filter((p) => p.removedAt === undefined && p.versions.length > 0);
  const given = new Set(query.fileNames.map((n) => n.toLowerCase()));
  const fits = live.filter((p) => {
    const needed = p.versions.at(-1)!.inputs.files.map((f) => f.name.toLowerCase());
    return given.size === 0 || needed.every((n) => given.has(n));
  });
  const text = [query.request, ...query.fileNames, ...(query.columns ?? [])].join('\n');
  const scores = cosineScores(text, fits.map(programText));
  return fits
    .map((program, i) => ({ program, score: scores[i]! }))
    .filter((s) => s.score >= MIN_PROGRAM_SCORE)
    .sort((a, b) => b.score - a.score);
}

/** The confirming call's instructions. */
export const CONFIRM_SYSTEM = [
  'You decide whether a new request asks for exactly what a saved program computes, maybe with other values of its parameters.',
  'Answer with one JSON object and nothing else:',
  '{"match": true, "params": {"NAME": value}} listing only the parameters the new request sets to another value, or',
  '{"match": false} when the new request asks for something else (another measure, another grouping, another file, more or less).',
].join('\n');

/** The confirming call's question for one program. */
export function confirmPrompt(version: ProgramVersion, name: string, request: string): ChatMessage[] {
  const params = version.parameters.length
    ? version.parameters.map((p) => `- ${p.name} (${p.type}, default ${JSON.stringify(p.default)})`).join('\n')
    : '(none)';
  const files = version.inputs.files.map((f) => f.name).join(', ') || '(none)';
  const user = `Saved program "${name}" answers: ${JSON.stringify(version.request)}\nIts input files: ${files}\nIts parameters:\n${params}\n\nNew request: ${JSON.stringify(request)}\n\nJSON:`;
  return [
    { role: 'system', content: CONFIRM_SYSTEM },
    { role: 'user', content: user },
  ];
}

/**
 * Reads the confirming call's reply: the first JSON object in it.
 * @returns the parameter values it sets (checked against the program's parameters: unknown names
 *   and values of another type are dropped), or undefined for "not this" or a reply that is no
 *   such object (never a guess)
 */
export function readConfirmation(reply: string, parameters: ProgramParameter[]): Record<string, ParameterValue> | undefined {
  const start = reply.indexOf('{');
  const end = reply.lastIndexOf('}');
  if (start < 0 || end <= start) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(reply.slice(start, end + 1));
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || (parsed as { match?: unknown }).match !== true) return undefined;
  const given = (parsed as { params?: unknown }).params;
  const out: Record<string, ParameterValue> = {};
  if (typeof given !== 'object' || given === null) return out;
  for (const p of parameters) {
    const value = coerce((given as Record<string, unknown>)[p.name], p.type);
    if (value !== undefined && value !== p.default) out[p.name] = value;
  }
  return out;
}

/** A JSON value read as a parameter's type, or undefined when it is not one. */
function coerce(value: unknown, type: ProgramParameter['type']): ParameterValue | undefined {
  switch (type) {
    case 'str':
      return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
    case 'int':
      return typeof value === 'number' && Number.isInteger(value) ? value : typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : undefined;
    case 'float':
      return typeof value === 'number' && Number.isFinite(value) ? value : typeof value === 'string' && Number.isFinite(Number(value)) && value.trim() !== '' ? Number(value) : undefined;
    case 'bool':
      return typeof value === 'boolean' ? value : undefined;
    default:
      return undefined;
  }
}

/**
 * Finds the team program that answers a request: the best candidates by retrieval, each put to the
 * LLM in one short call (temperature 0) until one is confirmed.
 * @returns the match, or undefined when no program is like the request or the LLM said "not this"
 *   for each candidate
 * @throws the provider's {@link import('../llm/types.js').LlmError} when a call fails
 */
export async function matchProgram(llm: LlmProvider, programs: TeamProgram[], query: ProgramQuery, signal?: AbortSignal): Promise<ProgramMatch | undefined> {
  const usage: TokenUsage = { promptTokens: 0, completionTokens: 0 };
  for (const { program, score } of rankPrograms(programs, query).slice(0, MAX_PROGRAM_CANDIDATES)) {
    const version = program.versions.at(-1)!;
    const reply = await llm.complete(confirmPrompt(version, program.name, query.request), { temperature: 0, maxTokens: CONFIRM_MAX_TOKENS, ...(signal ? { signal } : {}) });
    usage.promptTokens += reply.usage.promptTokens;
    usage.completionTokens += reply.usage.completionTokens;
    const params = readConfirmation(reply.content, version.parameters);
    if (params) return { program, version, params, score, usage };
  }
  return undefined;
}
