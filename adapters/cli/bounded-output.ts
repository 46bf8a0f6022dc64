/**
 * Program output in the terminal: one stream of at most {@link TERMINAL_STREAM_LINES} lines and
 * {@link TERMINAL_STREAM_CHARS} characters (head and tail kept), with a line saying where the full
 * text is when it was cut.
 */
import { boundMiddle } from '../../src/text/cut.js';

/** Most characters of one stream printed per execution. */
export const TERMINAL_STREAM_CHARS = 20_000;
/** Most lines of one stream printed per execution. */
export const TERMINAL_STREAM_LINES = 400;

/**
 * @param text the stream's text
 * @param fullPath host path of the full text, when the agent kept one
 */
export function terminalText(text: string, fullPath?: string): string {
  const lines = text.split('\n');
  let shown = text;
  if (lines.length > TERMINAL_STREAM_LINES) {
    const head = lines.slice(0, TERMINAL_STREAM_LINES / 4);
    const tail = lines.slice(-(TERMINAL_STREAM_LINES * 3) / 4);
    shown = [...head, `… (${lines.length - head.length - tail.length} lines left out) …`, ...tail].join('\n');
  }
  shown = boundMiddle(shown, TERMINAL_STREAM_CHARS);
  if (shown === text) return text;
  return `${shown}\n(output shortened${fullPath ? `; full text: ${fullPath}` : ''})`;
}
