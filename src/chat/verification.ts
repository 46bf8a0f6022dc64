/**
 * What chat surfaces say about verification (checks derived from the request, a review, a repeated
 * program), platform-neutral: a title in plain words and lines of untrusted text that each adapter
 * shows inside a code block with its own caps and escaping.
 */
import type { AgreementEvent, ChecksEvent, ProfiledEvent, QueuedEvent, RepeatedEvent, ReviewedEvent, ToolCallsEvent, WorkspaceEvent, WorkspaceRefusedEvent, WorkspaceReplacedEvent } from '../agent/run/index.js';
import { queuedText, replacedText, workspaceEntryText } from '../text/workspace-entry.js';
import { FEEDBACK_CALLS, toolCallLine } from '../tools/records.js';
import { checkLines, checksPassedText } from '../agent/verification/index.js';
import type { CheckReport, ExecutionResult } from '../history/execution.js';
import { previewLines } from '../data/table-preview.js';

/** A notice: `title` is our own words (safe); `lines` may hold model or program text (put it in a code block). */
export interface Notice {
  title: string;
  lines: string[];
}

/**
 * What judges a result when no check could be derived, in one wording for every surface: said before
 * the program runs, so it names both judges that may follow (an independent program's answer, else the
 * exit code) instead of promising the exit code alone and then showing a cross-check (case B5).
 */
export const NO_CHECKS_TEXT = "No checks could be derived from the request: an independent program's answer is compared with it where one can be, else its exit code judges it.";

/** The checks derived for a run (and, after feedback, the ones dropped), as one or two notices. */
export function checksNotices(event: ChecksEvent): Notice[] {
  const notices: Notice[] =
    event.asserts.length === 0
      ? [{ title: `🧪 ${NO_CHECKS_TEXT}`, lines: [] }]
      : [{ title: '🧪 Checks derived from the request (run after the program):', lines: event.asserts }];
  if (event.dropped.length > 0) {
    notices.push({ title: '⚠️ Checks dropped after the feedback (no longer asserted):', lines: event.dropped });
  }
  return notices;
}

/** The outcome of the checks of one execution, e.g. `Checks: 2/3 passed` and one line per check. */
export function checkReportNotice(report: CheckReport): Notice {
  const title = report.error ? 'Checks: could not run' : `Checks: ${checksPassedText(report).replace(/^checks /, '')}`;
  return { title, lines: checkLines(report) };
}

/** A review's answer. */
export function reviewNotice(event: ReviewedEvent): Notice {
  if (event.ok) return { title: `🔍 Review of attempt ${event.attempt}: meets the request.`, lines: [] };
  return { title: `🔍 Review of attempt ${event.attempt} found a defect:`, lines: [event.defect ?? ''] };
}

/** A program that repeats an earlier attempt's. */
export function repeatNotice(event: RepeatedEvent): Notice {
  return {
    title: `🔁 Attempt ${event.attempt} is the same program as attempt ${event.repeatOf}: not run again; asking the model for a different approach.`,
    lines: [],
  };
}

/** What the agent looked at in the input files: one line per file, e.g. `🔎 orders.json: object with key "orders": …`. */
export function profileNotice(event: ProfiledEvent): Notice {
  return { title: '🔎 What the agent looked at in the input files:', lines: event.files.map((f) => `🔎 ${f.name}: ${f.summary}`) };
}

/** Titles of the outcomes of an agreement step (our own words). */
const AGREEMENT_TITLES: Record<AgreementEvent['outcome'], string> = {
  agreed: 'an independent program printed the same answer (no check could pin it).',
  majority: 'independent programs disagreed; a third sided with it (majority).',
  disagreed: 'an independent program printed a different answer: not confirmed.',
  inconclusive: 'no independent program ran to compare with: not confirmed.',
};

/** The comparison of an attempt's answer with independent programs': the outcome and each printed answer. */
export function agreementNotice(event: AgreementEvent): Notice {
  const icon = event.outcome === 'agreed' || event.outcome === 'majority' ? '🤝' : '⚖️';
  const aside = event.setAside ?? [];
  const title =
    aside.length > 0
      ? `${icon} Attempt ${event.attempt}: an independent program printed the same answer; ${aside.length === 1 ? 'the check that disagreed was' : `the ${aside.length} checks that disagreed were`} set aside: ${aside.length === 1 ? 'it compares' : 'they compare'} with a constant the request does not state (a guess).`
      : `${icon} Attempt ${event.attempt}: ${AGREEMENT_TITLES[event.outcome]}`;
  return {
    title,
    lines: [
      `attempt ${event.attempt}: ${event.answer}`,
      ...event.others.map((o, i) => `independent ${i + 1}: ${o}`),
      ...aside.map((g) => `set aside: ${g.check.split('\n')[0]} (expects ${g.constant})`),
    ],
  };
}

/** One notice per table the program wrote and the sandbox could read: its name and first rows (the file itself is attached). */
export function tablePreviewNotices(result: ExecutionResult): Notice[] {
  return result.artifacts
    .filter((a) => a.preview !== undefined)
    .map((a) => ({ title: `📋 ${a.name.replace(/[`*_~|<>]/g, "'")}: the first rows`, lines: previewLines(a.preview!) }));
}

/** The run's workspace at the start of a turn: one line per file (name, size, given or written by which attempt). */
export function workspaceNotice(event: WorkspaceEvent): Notice {
  return { title: `📁 Workspace of this run (${event.files.length} file${event.files.length === 1 ? '' : 's'}, in every attempt's work dir):`, lines: event.files.map(workspaceEntryText) };
}

/** A newer file of a name already in the workspace replaced the older one. */
export function workspaceReplacedNotice(event: WorkspaceReplacedEvent): Notice {
  return { title: replacedText(event.file, event.previous).replace(/[`*_~|<>]/g, "'"), lines: [] };
}

/** Files an attempt wrote that the workspace could not keep (a bound), and why. */
export function workspaceRefusedNotice(event: WorkspaceRefusedEvent): Notice {
  return { title: `⚠️ Not kept in the workspace (later turns will not find them): ${event.reason}`, lines: event.names };
}

/** This call waits for another turn of the same run. */
export function queuedNotice(event: QueuedEvent): Notice {
  return { title: queuedText(event.waitMs), lines: [] };
}

/**
 * The tool calls of one execution: `🔧 GET api.example.com/v1/rates → 200, 2.1 KB, 84 ms`, one line
 * per call (the first {@link FEEDBACK_CALLS}, then how many more). The lines hold URLs the program
 * chose: untrusted text, shown in a code block like the rest of `lines`.
 */
export function toolCallsNotice(event: ToolCallsEvent): Notice {
  const refused = event.calls.filter((c) => !c.ok).length;
  const lines = event.calls.slice(0, FEEDBACK_CALLS).map(toolCallLine);
  if (event.calls.length > FEEDBACK_CALLS) lines.push(`… ${event.calls.length - FEEDBACK_CALLS} more`);
  const count = `${event.calls.length} tool call${event.calls.length === 1 ? '' : 's'}${refused ? `, ${refused} refused or failed` : ''}`;
  const who = event.independent ? `Independent program ${event.independent} checking attempt ${event.attempt}` : `Attempt ${event.attempt}`;
  return { title: `🔧 ${who}: ${count}`, lines };
}
