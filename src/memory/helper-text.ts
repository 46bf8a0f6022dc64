/**
 * How a thread shows a definition as code (`definition_helper` events): the helper a run wrote and
 * checked (its code, what the check saw, how to keep it), the approved helper a run was given, or
 * why none could be written. The same notice on every platform and in the terminal; the code and
 * the definition are untrusted lines (shown in a code block).
 */
import type { DefinitionHelper } from '../history/memory.js';

/** What a run did with a definition's helper (the shape of the agent's `definition_helper` event). */
export interface HelperUse {
  definition: { id: string; text: string };
  helper?: DefinitionHelper;
  /** true: written by this run; false: given from the channel's memory. */
  written: boolean;
  note?: string;
}

/** A notice: a title in our words and lines of the team's or the model's text. */
export interface HelperNotice {
  title: string;
  lines: string[];
}

/** The notice of a `definition_helper` event. */
export function helperNotice(event: HelperUse): HelperNotice {
  const { helper } = event;
  if (!helper) {
    return { title: `🧩 No helper for definition ${event.definition.id}: ${event.note ?? 'none could be written'}. The run reads the definition as a sentence.`, lines: [event.definition.text] };
  }
  if (event.written) {
    return {
      title: `🧩 Wrote \`from team import ${helper.name}\` for definition ${event.definition.id}, checked on ${helper.checked}. Approve this run (👍) to keep it with the definition for the channel's next runs.`,
      lines: [event.definition.text, ...helper.code.split('\n')],
    };
  }
  const by = helper.approvedBy ? `, approved by ${helper.approvedBy}` : '';
  return { title: `🧩 Using the team's \`from team import ${helper.name}\` for definition ${event.definition.id}${by}.`, lines: [event.definition.text] };
}
