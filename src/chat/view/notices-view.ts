/**
 * Notices a platform used to word itself, composed once: the files of a request that were not
 * used (Slack said "Some attached files were not used", Discord and Matrix "Not used"). What a
 * platform tells one person privately (`OutgoingPort.tell`) is a plain text: text-view.ts.
 */
import { boundLine } from '../../text/cut.js';
import type { View } from './blocks.js';

/** Longest line naming one skipped file and why, in characters. */
const SKIPPED_LINE_CHARS = 300;

/**
 * The notice of a request's files that were not used: one line per file (its name and why, from
 * src/chat/input-downloads.ts; the name is the user's text).
 * @param skipped at least one line
 */
export function skippedInputsView(skipped: string[]): View {
  const lines = skipped.flatMap((s, i) => [...(i ? ['\n'] : []), `• ${boundLine(s, SKIPPED_LINE_CHARS)}`]);
  return { blocks: [{ kind: 'text', text: ['⚠️ Some attached files were not used:\n', ...lines] }] };
}

