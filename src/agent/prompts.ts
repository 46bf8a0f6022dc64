/**
 * The conversation sent to the LLM for a run: the requirement, then every attempt as the
 * assistant's code and every result (or user feedback) as the next user message.
 */
import { withoutFilesNote } from '../text/files-note.js';
import type { ChatMessage } from '../llm/types.js';
import type { Attempt, Run } from '../history/types.js';
import { describeResult } from './failure.js';
import { checkLines } from './checks.js';
import { librariesSentence } from './environment-text.js';
import { profileSection, type InputProfile } from '../data/profile.js';
import { dataFeedback } from '../data/feedback.js';
import { answeredNothing, answeredOnlyMissing, requestSoFar } from './verdict.js';
import { missingChart, missingOutputs, missingOutputsFeedback, NO_CHART_FEEDBACK } from './requested-files.js';
import type { WorkspaceManifest } from '../history/workspace.js';
import { workspaceSection } from './workspace-turn.js';
import { factsOfFailure, sameFailureNote } from './repeated-failure.js';
import { definitionsSection, examplesSection } from '../memory/prompt.js';
import { methodsSection, statedMethods } from './methods/stated.js';
import { unmetFeedback } from './methods/requirements.js';

/**
 * Follows the input profile in the first message: how to read the data and how to print the
 * answer. It names the kinds of mistake small models make on data (counting records where a
 * quantity field should be summed, numbers typed as text skipped, local dates where UTC was asked,
 * unrounded values, an answer never printed).
 */
export const DATA_ANSWER_INSTRUCTION =
  'Read the files with the read call the profile above gives (numbers typed as text and date-times parsed as it ' +
  'shows). Keep only the records the request is about, selected by their fields (the kind, status or period it ' +
  'names), and when it asks for amounts of items, units or money, sum the quantity or amount field instead of ' +
  'counting records. When it asks per group or for each one, print one line per group with its name and value. ' +
  'Print every requested value on its own line with a short label, rounded as the request says.';

/**
 * Added after {@link DATA_ANSWER_INSTRUCTION} when the request groups by a period of time ("monthly
 * totals", "per hour", "for each month"): programs otherwise group by the date itself (one bar
 * per record's date in a "monthly" chart) or by the month's name in alphabetical order.
 */
export const PERIOD_INSTRUCTION =
  'The request groups by a period of time: parse the date-time field first (pandas.to_datetime), then group by its ' +
  "period: df.groupby(df['date'].dt.to_period('M').astype(str)) for months (labels such as 2024-01, which print and " +
  "plot), df['date'].dt.hour for hours; one line (or bar) per period, in time order, not one per record or per date.";

/** Words that group a request by a period of time. */
const PERIOD_REQUEST = /\b(?:monthly|weekly|daily|hourly|yearly|quarterly|(?:per|each|every|by)\s+(?:calendar\s+)?(?:month|week|day|hour|year|quarter))(?!\w)/i;

/**
 * Whether the files may hold date-times to take a period of: a column of dates, or one named like
 * a time (`date`, `time`, `timestamp`, `created_at`), or a file whose fields the profile does not
 * list (logs, JSON). A table that has only month names ("climate.csv: month, temperature") has
 * no date-time to parse: the period sentence would mislead there.
 */
function mayHoldDateTimes(profile: InputProfile): boolean {
  return profile.files.some((f) => !f.fields?.length || f.fields.some((x) => x.type === 'date' || /date|time|stamp|created|updated/i.test(String(x.name))));
}

/** The feedback after an attempt on input files that ran but printed nothing. */
export const NOTHING_PRINTED_FEEDBACK =
  'It printed nothing: the user sees no answer. Print every requested value (a label and the value on each line), also when it is 0.';

/** The feedback after an attempt on input files whose every printed value is missing (NaN). */
export const ONLY_MISSING_FEEDBACK =
  'Every value it printed is NaN: it computed them from no data. Use the exact field names the profile above gives ' +
  '(a name that is not there gives NaN), convert numbers typed as text as it shows, check that filters and joins keep ' +
  'records, and print the values computed from the real fields.';

/** How the conversation of a run is built. */
export interface PromptOptions {
  /** The system prompt ({@link systemPrompt} of the sandbox's environment); default {@link SYSTEM_PROMPT}. */
  system?: string;
  /** The run's workspace as the attempt's program will find it: listed with the requirement. */
  workspace?: WorkspaceManifest;
}

/**
 * The first user message of every attempt's conversation: the requirement and the channel's
 * definitions, then (runs with a workspace) its files — names, sizes, which earlier attempts wrote which — and their profile
 * and the channel's approved examples most like the request, followed by {@link DATA_ANSWER_INSTRUCTION}
 * (and {@link PERIOD_INSTRUCTION} when the request groups by a period of time).
 */
export function firstMessage(run: Pick<Run, 'requirement' | 'inputProfile' | 'memory'>, options: PromptOptions = {}): string {
  const shared = [sharedOpening(run, options), examplesSection(run.memory)].filter((t) => t !== '').join('\n\n');
  if (!run.inputProfile || profileSection(run.inputProfile) === '') return shared;
  const period = PERIOD_REQUEST.test(withoutFilesNote(run.requirement)) && mayHoldDateTimes(run.inputProfile) ? ` ${PERIOD_INSTRUCTION}` : '';
  return `${shared}\n\n${DATA_ANSWER_INSTRUCTION}${period}`;
}

/**
 * How every program call of a run starts its first user message (an attempt's and an independent
 * program's alike): the requirement, the methods it states as requirements (`methods/stated.ts`), the workspace listing, the profile, the channel's definitions. The same text, so a local
 * model finds it evaluated already (a call shares its longest prefix with the one before it).
 */
export function sharedOpening(run: Pick<Run, 'requirement' | 'inputProfile' | 'memory'>, options: PromptOptions = {}): string {
  const listing = workspaceSection(options.workspace);
  const section = run.inputProfile ? profileSection(run.inputProfile) : '';
  const methods = methodsSection(statedMethods(withoutFilesNote(run.requirement)));
  return [run.requirement, methods, listing, section, definitionsSection(run.memory)].filter((t) => t !== '').join('\n\n');
}

/**
 * Instructions given to the model before the requirement.
 * @param libraries the sentence saying which packages are installed (environment-text.ts), probed in the sandbox
 * @param tools what the conversation's tools offer (src/tools, `Toolbox.describe`); '' when none
 */
export function systemPrompt(libraries: string = librariesSentence(undefined), tools = ''): string {
  const network = tools === '' ? 'no network' : 'no network except the tools below';
  const rules = `You are a Python programmer. Write one complete, self-contained Python 3.11 program that does what the user asks.
Rules:
- Reply with the program in a single \`\`\`python code block. Keep any explanation short and outside the block.
- The program runs non-interactively in a sandbox: no input(), ${network}, no package installs. ${libraries}
- Print the results so the user can see them.
- Do not plot and do not import matplotlib unless the request asks for a chart, plot, graph or figure. When it does, use matplotlib: figures are saved automatically as PNG (you may also savefig to a file in the current directory).
- Files the program writes in the current directory are returned to the user.
- When you are told about an error or given feedback, reply with the whole corrected program, not a diff.`;
  return tools === '' ? rules : `${rules}\n\n${tools}`;
}

/** The system prompt when the sandbox's packages are not known (the fixed default list). */
export const SYSTEM_PROMPT = systemPrompt();

/**
 * What the LLM is told about how an attempt went: with the data's profile when it failed on the data,
 * what the profile knows of the names in its error, and the earlier attempts that failed the same way.
 */
function outcomeOf(previous: Attempt, run: Pick<Run, 'inputProfile' | 'requirement' | 'attempts' | 'checks'>): string {
  const missing = missingOutputs(previous, run, requestSoFar(run));
  // why what ran is no answer, when it is none
  const noAnswer = answeredNothing(previous, run) ? NOTHING_PRINTED_FEEDBACK
    : answeredOnlyMissing(previous, run) ? ONLY_MISSING_FEEDBACK
    : missing.length > 0 ? missingOutputsFeedback(missing)
    : missingChart(previous, requestSoFar(run)) ? NO_CHART_FEEDBACK
    : previous.unmet?.length ? unmetFeedback(previous.unmet)
    : undefined;
  const outcome = noAnswer ? `${resultOutcome(previous)}\n\n${noAnswer}` : resultOutcome(previous);
  const data = previous.result && previous.repeatOf === undefined ? dataFeedback(run.inputProfile, previous.result, previous.code) : undefined;
  // what the profile knows of the names in the error, and whether this failure came back
  const extra = [data, factsOfFailure(run, previous), sameFailureNote(run, previous)].filter((t) => t !== undefined);
  return [outcome, ...extra].join('\n\n');
}

function resultOutcome(previous: Attempt): string {
  if (previous.repeatOf !== undefined) {
    return `Your reply is the same program as before (attempt ${previous.repeatOf}), which did not work. ` +
      'Do not repeat it: find the cause and take a different approach.';
  }
  if (previous.error) return `Your previous reply could not be used: ${previous.error}. Reply with the program in a \`\`\`python code block.`;
  if (!previous.result) return 'The program was not executed.';
  const report = describeResult(previous.result);
  const checks = previous.result.checks;
  if (!checks) return report;
  const failed = checks.error !== undefined || checks.results.some((r) => !r.passed);
  if (!failed) return report;
  return `${report}\n\nBut it does not do what the request asks. Checks derived from the request:\n${checkLines(checks).join('\n')}`;
}

/** What the LLM is told for each kind of attempt that follows another. */
function followUp(previous: Attempt, next: Attempt, run: Run): string {
  const outcome = outcomeOf(previous, run);
  if (next.trigger === 'feedback') {
    return `${outcome}\n\nThe user asks for this change:\n${next.feedback ?? ''}\n\nReply with the whole improved program.`;
  }
  if (next.trigger === 'review') {
    return `${outcome}\n\nA reviewer found this defect:\n${next.feedback ?? ''}\n\nFix it. Reply with the whole corrected program.`;
  }
  return `${outcome}\n\nFix the program so that it does exactly what the request asks. Reply with the whole corrected program.`;
}

function asReply(attempt: Attempt): string {
  return attempt.code ? `\`\`\`python\n${attempt.code}\n\`\`\`` : '(no code)';
}

/**
 * Builds the chat for the next attempt of a run.
 * @param run the run so far (attempts already made, each with its result)
 * @param next the attempt being made (its trigger and feedback decide the last message)
 * @param options how the first message is built (the same for every attempt of a run)
 */
export function buildMessages(run: Run, next: Attempt, options: PromptOptions = {}): ChatMessage[] {
  const messages: ChatMessage[] = [
    { role: 'system', content: options.system ?? SYSTEM_PROMPT },
    { role: 'user', content: firstMessage(run, options) },
  ];
  // a team program's attempt is the run's program (its code was approved, not written here): kept, so that feedback on it is read
  const made = run.attempts.filter((a) => a.trigger !== 'rerun' || a.index === run.program?.attempt);
  const repeated = made.at(-1);
  if (repeated?.repeatOf !== undefined && next.trigger === 'error') return freshStart(messages, run, repeated.repeatOf);
  made.forEach((attempt, i) => {
    messages.push({ role: 'assistant', content: asReply(attempt) });
    const following = made[i + 1] ?? next;
    // the outcome that matters is the latest execution of this code (a rerun may have changed it)
    const latest = latestExecutionOf(run, attempt);
    messages.push({ role: 'user', content: followUp(latest, following, run) });
  });
  return messages;
}

/**
 * After the model repeated an earlier program: a new conversation with only the requirement and what
 * went wrong, without the earlier programs (a small model shown its own program copies it again).
 */
function freshStart(messages: ChatMessage[], run: Run, originalIndex: number): ChatMessage[] {
  const original = run.attempts[originalIndex - 1];
  const failure = original ? outcomeOf(original, run) : 'It did not work.';
  messages[1] = {
    role: 'user',
    content:
      `${messages[1]!.content}\n\nA first program for this request did not work:\n${failure}\n\n` +
      'Write a new program with a different approach that does exactly what the request asks.',
  };
  return messages;
}

function latestExecutionOf(run: Run, attempt: Attempt): Attempt {
  const start = run.attempts.indexOf(attempt);
  let latest = attempt;
  for (const a of run.attempts.slice(start + 1)) {
    if (a.trigger !== 'rerun') break;
    latest = a;
  }
  return latest;
}
