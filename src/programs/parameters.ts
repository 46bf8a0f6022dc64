/**
 * A team program's parameters: read once when a version is saved (with Python's `ast`, in the
 * sandbox: facts.ts), and applied when it runs: `name=value` replaces that assignment's literal in
 * the code (by the span the extraction recorded), after the value is read as the parameter's type.
 * A value that cannot be read is refused saying what was understood and an example; an unknown name
 * is refused listing the known ones. Pure functions.
 */
import { InputError } from '../config/errors.js';
import type { ProgramParameter, ProgramSpan } from '../history/programs.js';

/** A parameter value that cannot be used (an unknown name, a value not of its type): nothing runs. */
export class ParameterError extends InputError {
  override name = 'ParameterError';
}

/** A parameter's value as the program gets it. */
export type ParameterValue = string | number | boolean;

/** Longest text value, in characters. */
export const MAX_VALUE_CHARS = 500;

/**
 * Splits `name=value` words (values may be quoted: `REGION="North America"`, `'EU'`).
 * @returns the words in order, quotes removed
 * @throws {ParameterError} for an unclosed quote
 */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  let word = '';
  let quote: string | undefined;
  let started = false;
  for (const ch of text.replace(/[\u201c\u201d]/g, '"').replace(/[\u2018\u2019]/g, "'")) {
    if (quote !== undefined) {
      if (ch === quote) quote = undefined;
      else word += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      started = true;
    } else if (/\s/.test(ch)) {
      if (started) words.push(word);
      word = '';
      started = false;
    } else {
      word += ch;
      started = true;
    }
  }
  if (quote !== undefined) throw new ParameterError(`a quote (${quote}) is not closed in: ${text.slice(0, 200)}`);
  if (started) words.push(word);
  return words;
}

/**
 * Reads `name=value` words into values by name (the last of a name wins).
 * @throws {ParameterError} for a word without `=` or without a name
 */
export function parseAssignments(words: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const word of words) {
    const at = word.indexOf('=');
    if (at <= 0) throw new ParameterError(`"${word.slice(0, 80)}" is not a parameter: write name=value, e.g. REGION=EU`);
    out[word.slice(0, at).trim()] = word.slice(at + 1);
  }
  return out;
}

const TYPE_WORDS: Record<ProgramParameter['type'], string> = {
  str: 'text',
  int: 'a whole number',
  float: 'a number',
  bool: 'true or false',
};

/** An example value of a parameter's type, for refusals. */
function example(p: ProgramParameter): string {
  switch (p.type) {
    case 'int':
      return `${p.name}=${typeof p.default === 'number' ? p.default + 1 : 7}`;
    case 'float':
      return `${p.name}=${typeof p.default === 'number' ? p.default : 0.5}`;
    case 'bool':
      return `${p.name}=${p.default === true ? 'false' : 'true'}`;
    default:
      return `${p.name}="${typeof p.default === 'string' && p.default !== '' ? p.default : 'some text'}"`;
  }
}

/**
 * Reads one value as a parameter's type.
 * @throws {ParameterError} saying what was understood and an example
 */
export function readValue(p: ProgramParameter, raw: string): ParameterValue {
  const text = raw.trim();
  const refuse = (why: string): never => {
    throw new ParameterError(`${p.name} takes ${TYPE_WORDS[p.type]} (${p.type}); "${raw.slice(0, 80)}" ${why}. For example: ${example(p)}`);
  };
  switch (p.type) {
    case 'str':
      if (raw.length > MAX_VALUE_CHARS) refuse(`is ${raw.length} characters long, the most is ${MAX_VALUE_CHARS}`);
      return raw;
    case 'int': {
      const m = /^[+-]?\d[\d_]*$/.exec(text);
      if (!m) return refuse(/^[+-]?\d*\.\d+$/.test(text) ? 'has a fraction' : 'was not read as a number');
      const n = Number(text.replace(/_/g, ''));
      if (!Number.isSafeInteger(n)) refuse('is too large');
      return n;
    }
    case 'float': {
      if (!/^[+-]?(\d[\d_]*\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text)) return refuse('was not read as a number');
      const n = Number(text.replace(/_/g, ''));
      if (!Number.isFinite(n)) refuse('is not a finite number');
      return n;
    }
    case 'bool': {
      const word = text.toLowerCase();
      if (['true', 'yes', 'on', '1'].includes(word)) return true;
      if (['false', 'no', 'off', '0'].includes(word)) return false;
      return refuse('was read as neither true nor false');
    }
    default:
      return unknownType(p.type);
  }
}

/** A value as a Python literal of its type. */
export function pythonLiteral(type: ProgramParameter['type'], value: ParameterValue): string {
  switch (type) {
    case 'str':
      // a JSON string is a valid Python string literal (\uXXXX escapes included)
      return JSON.stringify(String(value));
    case 'int':
      return String(Math.trunc(Number(value)));
    case 'float': {
      const n = Number(value);
      const s = String(n);
      return /[.eE]/.test(s) ? s : `${s}.0`;
    }
    case 'bool':
      return value ? 'True' : 'False';
    default:
      return unknownType(type);
  }
}

/**
 * The values given, checked against the parameters: each name must be a parameter's (exactly, or
 * unambiguously in another case: `region=EU` for `REGION`), each value of its type.
 * @returns the values by the parameters' own names
 * @throws {ParameterError} for an unknown name (listing the known ones) or a value not of its type
 */
export function checkValues(parameters: ProgramParameter[], given: Record<string, string>, program: string): Record<string, ParameterValue> {
  const out: Record<string, ParameterValue> = {};
  for (const [name, raw] of Object.entries(given)) {
    const p = parameters.find((q) => q.name === name) ?? only(parameters.filter((q) => q.name.toLowerCase() === name.toLowerCase()));
    if (!p) {
      const known = parameters.length ? `its parameters are ${parameters.map((q) => `${q.name} (${q.type}, default ${pythonLiteral(q.type, q.default)})`).join(', ')}` : 'it has no parameters';
      throw new ParameterError(`\`${program}\` has no parameter "${name.slice(0, 60)}": ${known}.`);
    }
    out[p.name] = readValue(p, raw);
  }
  return out;
}

/**
 * The code with each given value in place of its parameter's literal (by the recorded span).
 * @param values checked values by parameter name ({@link checkValues})
 * @throws {ParameterError} when a parameter has no span or its span is not in the code (a record not made by the extraction)
 */
export function applyParameters(code: string, parameters: ProgramParameter[], values: Record<string, ParameterValue>): string {
  const lines = code.split('\n');
  const edits = Object.entries(values).map(([name, value]) => {
    const p = parameters.find((q) => q.name === name)!;
    if (!p.span || !inCode(lines, p.span)) throw new ParameterError(`the parameter ${name} cannot be set in this version: where its value is in the code was not recorded; save the program again`);
    return { span: p.span, text: pythonLiteral(p.type, value) };
  });
  // the last edit first: earlier spans stay where they were
  edits.sort((a, b) => b.span.line - a.span.line || b.span.col - a.span.col);
  for (const { span, text } of edits) {
    const before = lines[span.line - 1]!.slice(0, span.col);
    const after = lines[span.endLine - 1]!.slice(span.endCol);
    lines.splice(span.line - 1, span.endLine - span.line + 1, before + text + after);
  }
  return lines.join('\n');
}

/** Whether a span lies within the code's lines. */
function inCode(lines: string[], span: ProgramSpan): boolean {
  const first = lines[span.line - 1];
  const last = lines[span.endLine - 1];
  return first !== undefined && last !== undefined && span.line <= span.endLine && span.col <= first.length && span.endCol <= last.length && (span.line < span.endLine || span.col < span.endCol);
}

/** A parameter's value as shown (`REGION="EU"`, `DAYS=7`). */
export function shownValue(p: Pick<ProgramParameter, 'name' | 'type'>, value: ParameterValue): string {
  return `${p.name}=${pythonLiteral(p.type, value)}`;
}

function only<T>(items: T[]): T | undefined {
  return items.length === 1 ? items[0] : undefined;
}

function unknownType(type: never): never {
  throw new Error(`unknown parameter type: ${String(type)}`);
}
