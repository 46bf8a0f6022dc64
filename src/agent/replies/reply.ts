/**
 * Asks the LLM for a program and takes a reply as a program only when it is whole:
 * - a reply cut at the token limit (`stopReason: 'length'`) is asked for once more with twice the
 *   room; a stream that ended early (`unfinished`) once more as it was. Still cut, it is reported
 *   as cut off (fault `length` when the limit cut it twice: the run ends, see `../failures/repeated-failure.ts`)
 *   and never run: the part of a program that fits proves nothing;
 * - a reply that degenerates while it streams (see `runaway.ts`) is stopped at once and reported,
 *   and the next attempt of the run samples differently (see {@link samplingAfter});
 * - a reply ends at the closing fence of its first Python block (`programClosed`): the
 *   explanation a model writes after its program is never read, and costs generated tokens;
 * - a whole reply goes to `extract.ts`.
 */
import type { ChatMessage, Completion, LlmProvider, TokenUsage } from '../../llm/types.js';
import { LlmError } from '../../llm/types.js';
import type { Attempt } from '../../history/types.js';
import { extractCode } from './extract.js';
import { RunawayWatch } from './runaway.js';
import { programClosed } from './partial-code.js';

/** Temperature of an attempt that follows a degenerated reply: enough to leave the loop. */
export const AFTER_RUNAWAY_TEMPERATURE = 0.7;

/** Options of {@link askForProgram}. */
export interface AskOptions {
  signal?: AbortSignal;
  /** Receives the reply's text as it streams in (also the text of a second request). */
  onToken?: (text: string) => void;
  /** Called before a second request for the same program: the text that follows replaces what came before. */
  onRestart?: () => void;
  temperature?: number;
  avoidRepetition?: boolean;
}

/** A program, or why the reply is not one. */
export interface ProgramReply {
  /** The extracted program, when the reply was whole and held one. */
  code?: string;
  /** Why there is no program (cut off, degenerated, no code…), in words for the user and the model. */
  error?: string;
  /** Set when the reply itself was at fault: cut off, or degenerated while it streamed. */
  fault?: Attempt['replyFault'];
  /** The whole reply's text, when it was whole (e.g. for a ```checks block beside the program). */
  content?: string;
  /** Tokens of every request made (a second request's are added). */
  usage: TokenUsage;
}

/**
 * Asks for a program (see the module doc).
 * @throws {LlmError} when the LLM fails, or with the cause when `signal` aborts.
 */
export async function askForProgram(llm: LlmProvider, messages: ChatMessage[], options: AskOptions): Promise<ProgramReply> {
  const first = await completeWatched(llm, messages, options);
  if ('runaway' in first) return first.runaway;
  let completion = first.completion;
  const usage = { ...completion.usage };
  if (completion.stopReason !== 'stop') {
    const more = completion.stopReason === 'length' ? 2 * (llm.maxTokens ?? Math.max(completion.usage.completionTokens, Math.ceil(completion.content.length / 3))) : undefined;
    let second;
    options.onRestart?.();
    try {
      second = await completeWatched(llm, messages, { ...options, ...(more !== undefined ? { maxTokens: more } : {}) });
    } catch (err) {
      // a server that refuses a larger max_tokens: the first reply stays cut off
      if (!(err instanceof LlmError) || err.status !== 400 || options.signal?.aborted) throw err;
      return { error: cutOff(completion), fault: 'cut', usage };
    }
    if ('runaway' in second) return { ...second.runaway, usage: add(usage, second.runaway.usage) };
    completion = second.completion;
    Object.assign(usage, add(usage, completion.usage));
    if (completion.stopReason !== 'stop') return { error: cutOff(completion, more), fault: completion.stopReason === 'length' ? 'length' : 'cut', usage };
  }
  const extracted = extractCode(completion.content);
  return 'code' in extracted ? { code: extracted.code, content: completion.content, usage } : { error: extracted.error, content: completion.content, usage };
}

/**
 * The sampling of the next attempt: after a reply that degenerated, a higher temperature and a
 * penalty on repetition (the prompt also tells the model, through the attempt's error).
 */
export function samplingAfter(previous: Attempt | undefined): { temperature?: number; avoidRepetition?: boolean } {
  return previous?.replyFault === 'runaway' ? { temperature: AFTER_RUNAWAY_TEMPERATURE, avoidRepetition: true } : {};
}

/** One completion, stopped as soon as the streamed text runs away. */
async function completeWatched(
  llm: LlmProvider,
  messages: ChatMessage[],
  options: AskOptions & { maxTokens?: number },
): Promise<{ completion: Completion } | { runaway: ProgramReply }> {
  const watch = new RunawayWatch();
  const controller = new AbortController();
  const outer = options.signal;
  const onOuterAbort = () => controller.abort(outer?.reason);
  if (outer?.aborted) controller.abort(outer.reason);
  outer?.addEventListener('abort', onOuterAbort, { once: true });
  let chars = 0;
  try {
    const completion = await llm.complete(messages, {
      signal: controller.signal,
      ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
      ...(options.maxTokens !== undefined ? { maxTokens: options.maxTokens } : {}),
      ...(options.avoidRepetition ? { avoidRepetition: true } : {}),
      // the program is whole at its closing fence: an explanation after it is read by no one
      endWhen: programClosed,
      onToken: (text) => {
        chars += text.length;
        options.onToken?.(text);
        if (watch.push(text) !== undefined) controller.abort(new Error('the reply ran away'));
      },
    });
    // a provider that does not stream: the whole reply is checked at once
    if (watch.reason === undefined && chars === 0) watch.push(completion.content + '\n');
    if (watch.reason === undefined) return { completion };
    chars = completion.content.length;
  } catch (err) {
    if (watch.reason === undefined || outer?.aborted) throw err;
  } finally {
    outer?.removeEventListener('abort', onOuterAbort);
  }
  return {
    runaway: {
      error:
        `the reply degenerated: ${watch.reason}, and was stopped after ${chars} characters. ` +
        'Write a short, direct program: no repeated lines, no deep nesting',
      fault: 'runaway',
      usage: { promptTokens: 0, completionTokens: 0 },
    },
  };
}

function cutOff(completion: Completion, maxTokens?: number): string {
  if (completion.stopReason === 'length') {
    const limit = maxTokens ?? completion.usage.completionTokens;
    return `the reply was cut off at the LLM's length limit${limit ? ` (${limit} tokens)` : ''} before the program was complete, so it was not run`;
  }
  return 'the reply was cut off: the LLM stopped sending before the program was complete, so it was not run';
}

function add(a: TokenUsage, b: TokenUsage): TokenUsage {
  return { promptTokens: a.promptTokens + b.promptTokens, completionTokens: a.completionTokens + b.completionTokens };
}
