/**
 * The team set taught by definitions alone: a scripted teammate states every case's convention in
 * one channel with `/remember` (ChannelMemory.remember; no approved example), then each case's
 * paraphrase is asked there and its checker scores the answer shown last. Reports the right
 * answers per case, whether the case's own definition was given to the run, and, with definition
 * helpers on (`memory.definition_helpers`), the helper each run wrote, checked and used.
 */
import type { Agent } from '../../src/agent/loop/index.js';
import type { AgentEvent } from '../../src/agent/run/index.js';
import type { ChannelMemory } from '../../src/memory/channel-memory.js';
import type { LlmProvider } from '../../src/llm/types.js';
import { usesHelper } from '../../src/memory/helpers.js';
import { median, pct, sum } from '../shared/stats.js';
import type { TeamCase } from './cases.js';
import { shownStdout } from './first.js';

/** One paraphrase asked in the channel taught by definitions. */
export interface DefinitionAsk {
  id: string;
  pass: boolean;
  reason: string;
  status: string;
  /** Time to the final answer, in s. */
  seconds: number;
  attempts: number;
  /** Whether the run was given its own case's definition. */
  gotOwn: boolean;
  /** The definitions the run was given (their text), most similar first. */
  given: string[];
  /** LLM tokens the run spent (prompt + completion), helpers included. */
  tokens: number;
  llmCalls: number;
  /** The helper the run wrote (or was given), when helpers are on. */
  helper?: { name: string; kept: boolean; used: boolean; note?: string };
  /** The last 400 characters of the last attempt's stderr, when it wrote any. */
  stderrTail?: string;
  /** The program whose answer was scored (its first 1,500 characters), and the helper's code: to read why a run went wrong. */
  finalCode?: string;
  helperCode?: string;
}

/** The `--definitions --json` file. */
export interface DefinitionsSummary {
  definitions: true;
  provider: string;
  verify: string;
  retries: number;
  /** Whether definition helpers were on. */
  helpers: boolean;
  results: DefinitionAsk[];
}

/** Counts the LLM calls and tokens (prompt + completion) of a provider, for the per-run figures (the bench keeps no usage ledger). */
export class TokenCounter {
  tokens = 0;
  calls = 0;

  /** The provider, counted: every other member passes through. */
  wrap(llm: LlmProvider): LlmProvider {
    return new Proxy(llm, {
      get: (target, prop) => {
        if (prop === 'complete') {
          return async (...args: Parameters<LlmProvider['complete']>) => {
            const c = await target.complete(...args);
            this.calls += 1;
            this.tokens += c.usage.promptTokens + c.usage.completionTokens;
            return c;
          };
        }
        const value: unknown = Reflect.get(target, prop, target);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  }
}

/** Teaches `conversationId` every case's definition (all of the set, so each run meets the others too); returns the entry id per case id. */
export async function teachDefinitions(memory: ChannelMemory, conversationId: string, cases: TeamCase[]): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const c of cases) ids.set(c.id, (await memory.remember(conversationId, c.definition, 'teammate')).id);
  return ids;
}

/** Asks a case's paraphrase in the channel; scores the answer shown last. */
export async function askDefinition(agent: Agent, conversationId: string, c: TeamCase, ownEntry: string | undefined, counter: TokenCounter): Promise<DefinitionAsk> {
  const before = { tokens: counter.tokens, calls: counter.calls };
  let given: { id: string; text: string }[] = [];
  let helper: DefinitionAsk['helper'];
  let helperCode: string | undefined;
  const started = performance.now();
  const run = await agent.run(conversationId, c.paraphrase, {
    inputFiles: c.files,
    requestedBy: 'asker',
    onEvent: (e: AgentEvent) => {
      if (e.type === 'memory_used') given = e.definitions;
      if (e.type === 'definition_helper') {
        helper = { name: e.helper?.name ?? '', kept: e.helper !== undefined, used: false, ...(e.note ? { note: e.note } : {}) };
        helperCode = e.helper?.code;
      }
    },
  });
  const seconds = (performance.now() - started) / 1000;
  const last = [...run.attempts].reverse().find((a) => a.result)?.result;
  const stderr = last?.stderr.trim() ?? '';
  const verdict = c.check(shownStdout(run));
  const code = [...run.attempts].reverse().find((a) => a.result)?.code ?? '';
  if (helper?.kept) helper.used = usesHelper(code, helper.name);
  return {
    id: c.id,
    pass: verdict.pass,
    reason: verdict.reason,
    status: run.status,
    seconds,
    attempts: run.attempts.length,
    gotOwn: given.some((d) => d.id === ownEntry),
    given: given.map((d) => d.text),
    tokens: counter.tokens - before.tokens,
    llmCalls: counter.calls - before.calls,
    ...(helper ? { helper } : {}),
    ...(stderr ? { stderrTail: stderr.slice(-400) } : {}),
    finalCode: code.slice(0, 1500),
    ...(helperCode ? { helperCode } : {}),
  };
}

/** The report: right answers, own definition given, helpers written and used, time and tokens; then one line per case. */
export function formatDefinitionsReport(s: DefinitionsSummary): string {
  const r = s.results;
  const n = r.length;
  const right = r.filter((x) => x.pass).length;
  const helpers = r.filter((x) => x.helper?.kept);
  return [
    `team set taught by definitions alone, ${s.provider}, verify ${s.verify}, retries ${s.retries}, definition helpers ${s.helpers ? 'on' : 'off'}: ${n} paraphrases`,
    `right answers: ${right}/${n} (${pct(right, n)})`,
    `given its own definition: ${r.filter((x) => x.gotOwn).length}/${n}; other definitions given: ${sum(r.map((x) => x.given.length - (x.gotOwn ? 1 : 0)))}`,
    ...(s.helpers ? [`helper written and checked: ${helpers.length}/${n}; imported by the final program: ${helpers.filter((x) => x.helper!.used).length}/${helpers.length}`] : []),
    `median time to the final answer: ${median(r.map((x) => x.seconds)).toFixed(1)} s; median tokens: ${median(r.map((x) => x.tokens)).toFixed(0)} (total ${sum(r.map((x) => x.tokens))})`,
    '',
    ...r.map((x) => {
      const h = x.helper ? ` helper ${x.helper.kept ? `${x.helper.name}()${x.helper.used ? ' used' : ' not used'}` : `not kept${x.helper.note ? ` (${x.helper.note.slice(0, 80)})` : ''}`}` : '';
      return `${x.id.padEnd(24)} ${x.pass ? 'pass' : 'FAIL'} ${x.status.padEnd(10)} own ${x.gotOwn ? 'yes' : 'no '} ${x.seconds.toFixed(0).padStart(4)} s ${String(x.tokens).padStart(6)} tok${h}${x.pass ? '' : `  ${x.reason}`}`;
    }),
  ].join('\n');
}
