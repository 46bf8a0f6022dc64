/**
 * The conversation sent to the LLM for a run's next attempt: the opening (`../replies`), then every
 * attempt as the assistant's code and every result (or user feedback) as the next user message.
 */
import type { ChatMessage } from '../../llm/types.js';
import type { Attempt, Run } from '../../history/types.js';
import { describeResult, factsOfFailure, sameFailureNote } from '../failures/index.js';
import { dataFeedback } from '../../data/feedback.js';
import { missingChart, missingOutputs, missingOutputsFeedback, NO_CHART_FEEDBACK, unmetFeedback } from '../requirements/index.js';
import { firstMessage, SYSTEM_PROMPT, type PromptOptions } from '../replies/index.js';
import { answeredNothing, answeredOnlyMissing, checkLines, requestSoFar } from '../verification/index.js';

/** The feedback after an attempt on input files that ran but printed nothing. */
export const NOTHING_PRINTED_FEEDBACK =
  'It printed nothing: the user sees no answer. Print every requested value (a label and the value on each line), also when it is 0.';

/** The feedback after an attempt on input files whose every printed value is missing (NaN). */
export const ONLY_MISSING_FEEDBACK =
  'Every value it printed is NaN: it computed them from no data. Use the exact field names the profile above gives ' +
  '(a name that is not there gives NaN), convert numbers typed as text as it shows, check that filters and joins keep ' +
  'records, and print the values computed from the real fields.';

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
