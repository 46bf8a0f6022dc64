/**
 * Shapes untrusted program text for chat platforms: keep it inert inside code blocks, cap it,
 * and name an execution's outcome in one status line. Platform-neutral; adapters pick the limits
 * (Slack: 3000 characters per section block; Discord: 2000 characters per message).
 */
import { constants } from 'node:os';
import type { ExecutionResult } from '../history/execution.js';
import { summarizeFailure } from '../agent/failures/index.js';
import { cutChars } from '../text/cut.js';
import { checksPassedText, checksShortfall } from '../agent/verification/index.js';
import type { RunStatus } from '../history/types.js';

/** The mark of each run status, the same on every surface. `unverified`: it ran, but was not confirmed. */
export const STATUS_ICON: Readonly<Record<RunStatus, string>> = Object.freeze({
  success: '✅',
  unverified: '⚠️',
  failed: '❌',
  generated: '📝',
  running: '⏳',
});

/** A zero-width space: inserted to break fences and mentions without changing what people read. */
const ZWSP = '\u200b';

/**
 * Makes text safe inside a ``` code block: no run of three backticks survives to close the block.
 */
export function neutraliseFences(text: string): string {
  return text.replace(/`(?=``)/g, `\`${ZWSP}`);
}

/** Result of {@link capText}. */
export interface CappedText {
  text: string;
  /** True when lines or characters were cut; the caller should attach the full text as a file. */
  truncated: boolean;
}

/**
 * Keeps at most `maxLines` lines and `maxChars` characters (a marker line says how much was cut).
 * @param maxChars characters, including the marker
 */
export function capText(text: string, maxChars: number, maxLines = 40): CappedText {
  const lines = text.split('\n');
  let kept = lines.slice(0, maxLines).join('\n');
  let truncated = lines.length > maxLines;
  const marker = (n: number) => `\n… (${n} more characters; full text attached)`;
  if (kept.length > maxChars || truncated) {
    const budget = Math.max(0, maxChars - marker(text.length).length);
    if (kept.length > budget) {
      kept = cutChars(kept, budget);
      truncated = true;
    }
    return { text: kept + marker(text.length - kept.length), truncated };
  }
  return { text: kept, truncated };
}

/** Wraps untrusted text in a code block of the given language, fences neutralised. */
export function codeBlock(text: string, language = ''): string {
  const body = neutraliseFences(text.replace(/\s+$/, '')) || ' ';
  return `\`\`\`${language}\n${body}\n\`\`\``;
}

/** Options of {@link fitBlock}. */
export interface FitOptions {
  /** Most lines of the raw text shown. Default 40. */
  maxLines?: number;
  /** Code block language. Default none. */
  language?: string;
  /**
   * The transformations applied after the block is built (a label before it, platform escaping):
   * the limit is checked on their result. Default: none.
   */
  wrap?: (block: string) => string;
}

/**
 * Untrusted text as a code block that fits in `max` characters *after* every transformation
 * (fence neutralising, the caller's escaping and label): the raw text is capped with a marker,
 * rendered, measured, and capped harder until it fits. Never cuts a rendered block (no unbalanced
 * fence, no half entity).
 * @param max characters of the rendered result
 * @returns the text (≤ `max` characters) and whether the raw text was cut (attach it whole then)
 */
export function fitBlock(raw: string, max: number, options: FitOptions = {}): CappedText {
  const { maxLines = 40, language = '', wrap = (b: string) => b } = options;
  const render = (budget: number) => {
    const capped = capText(raw, budget, maxLines);
    return { text: wrap(codeBlock(capped.text, language)), truncated: capped.truncated };
  };
  const whole = render(raw.length);
  if (whole.text.length <= max) return whole;
  // the rendered length grows with the budget: find the largest budget that fits
  let lo = 0;
  let hi = Math.min(raw.length, max);
  let best: CappedText | undefined;
  while (lo <= hi) {
    const mid = Math.floor((lo + hi) / 2);
    const r = render(mid);
    if (r.text.length <= max) {
      best = { text: r.text, truncated: true };
      lo = mid + 1;
    } else hi = mid - 1;
  }
  if (best) return best;
  const note = wrap('(too long to show here; full text attached)');
  return { text: note.length <= max ? note : cutChars('(full text attached)', max), truncated: true };
}

/** The meaning of an exit code or signal in words, e.g. `killed by signal 9 (SIGKILL)`. */
export function exitMeaning(result: ExecutionResult): string {
  if (result.limitHit === 'wall_time' || result.timedOut) return 'timed out';
  if (result.limitHit === 'memory') return 'out of memory';
  if (result.limitHit) return `stopped: ${result.limitHit.replaceAll('_', ' ')} limit`;
  if (result.signal) {
    const number = constants.signals[result.signal as keyof typeof constants.signals];
    return number ? `killed by signal ${number} (${result.signal})` : `killed by ${result.signal}`;
  }
  if (result.exitCode === 0) return 'exit code 0';
  return `exit code ${result.exitCode}`;
}

/**
 * One status line for an execution, e.g. `✅ Success · exit code 0 · 0.12 s · checks 3/3 passed`,
 * `⚠️ Ran, not confirmed · exit code 0 · 0.12 s · 1 of 3 checks failed: …` or
 * `❌ Failed · timed out · 10.0 s · NameError: …`.
 */
export function statusLine(result: ExecutionResult): string {
  const seconds = `${(result.durationMs / 1000).toFixed(2)} s`;
  if (!result.success) return `❌ Failed · ${exitMeaning(result)} · ${seconds} · ${summarizeFailure(result)}`;
  if (!result.checks) return `✅ Success · ${exitMeaning(result)} · ${seconds}`;
  const shortfall = checksShortfall(result.checks);
  if (shortfall !== undefined) return `⚠️ Ran, not confirmed · ${exitMeaning(result)} · ${seconds} · ${shortfall}`;
  return `✅ Success · ${exitMeaning(result)} · ${seconds} · ${checksPassedText(result.checks)}`;
}
