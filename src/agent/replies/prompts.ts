/**
 * How every program call of a run opens (the system prompt, the request and what it states, the
 * workspace, the profile, the channel's memory): an attempt's and an independent program's alike.
 * What follows an attempt (its outcome, the feedback) is the loop's (`../loop/conversation.ts`).
 */
import { withoutFilesNote } from '../../text/files-note.js';
import type { Run } from '../../history/types.js';
import { librariesSentence } from '../failures/index.js';
import { profileSection, type InputProfile } from '../../data/profile.js';
import type { WorkspaceManifest } from '../../history/workspace.js';
import { workspaceSection } from '../run/index.js';
import { definitionsSection, examplesSection } from '../../memory/prompt.js';
import { methodsSection, statedMethods } from '../requirements/index.js';

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
 * program's alike): the requirement, the methods it states as requirements (`../requirements/methods/stated.ts`), the workspace listing, the profile, the channel's definitions. The same text, so a local
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
 * @param libraries the sentence saying which packages are installed (`../failures/environment-text.ts`), probed in the sandbox
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
