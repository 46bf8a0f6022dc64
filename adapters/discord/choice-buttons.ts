/**
 * The choice buttons of a run's last message on Discord: a row with a button per candidate and
 * "Neither" while the run awaits settlement, and a row with 👍/👎 on every run with an answer, "Save
 * as team program" and "Write a new program" (src/chat/settle-view.ts `choicesOf`). Custom ids `ca:choice:<run id>:<choice id>` (ids.ts);
 * Discord allows 5 buttons per row and 5 rows
 * (https://discord.com/developers/docs/interactions/message-components#action-rows).
 */
import { ButtonStyle, ComponentType, type APIActionRowComponent, type APIButtonComponent } from 'discord.js';
import type { Run } from '../../src/history/types.js';
import { choicesOf, NEW_PROGRAM_CHOICE, SAVE_PROGRAM_CHOICE, type Choice } from '../../src/chat/settle-view.js';
import { customId } from './ids.js';

/** Buttons per action row. */
const ROW_BUTTONS = 5;

function button(runId: string, c: Choice): APIButtonComponent {
  const style = c.primary ? ButtonStyle.Success : c.id === 'settle:neither' ? ButtonStyle.Danger : ButtonStyle.Secondary;
  return { type: ComponentType.Button, style, label: c.label, custom_id: customId('choice', runId, c.id) };
}

const row = (components: APIButtonComponent[]): APIActionRowComponent<APIButtonComponent> => ({ type: ComponentType.ActionRow, components });

/** The candidates' row (at most 4 candidates and "Neither"); none when the run awaits no settlement. */
export function choiceRows(run: Run): APIActionRowComponent<APIButtonComponent>[] {
  const settle = choicesOf(run).filter((c) => c.id.startsWith('settle:'));
  if (settle.length === 0) return [];
  const candidates = settle.filter((c) => c.id !== 'settle:neither').slice(0, ROW_BUTTONS - 1);
  return [row([...candidates, settle.find((c) => c.id === 'settle:neither')!].map((c) => button(run.id, c)))];
}

/**
 * The 👍/👎 row of a run with an answer, with "Save as team program" (its click asks for the name)
 * and, on a run that ran a team program found for its request, "Write a new program"; none otherwise.
 */
export function feedbackRow(run: Run): APIActionRowComponent<APIButtonComponent>[] {
  const approve = choicesOf(run).filter((c) => c.id.startsWith('approve:') || c.id === SAVE_PROGRAM_CHOICE || c.id === NEW_PROGRAM_CHOICE);
  return approve.length ? [row(approve.map((c) => button(run.id, c)))] : [];
}
