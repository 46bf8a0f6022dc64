/** One-line summaries of tool calls, as shown in the terminal and the thread ("🔧 …"). */
import type { ToolCallRecord } from './types.js';
import { formatBytes } from '../text/bytes.js';

/** `api.example.com/v1/rates` from a URL: host (with a port other than the default) and path, no query, at most 120 chars. */
export function shortUrl(url: URL): string {
  const text = `${url.host}${url.pathname}`;
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

/**
 * The record of an HTTP call: `GET api.example.com/v1/rates → 200, 2.1 KB, 84 ms`, or
 * `GET evil.example.com/ → refused: …`.
 * @param outcome the status, or the reason it was refused or failed
 * @param answer the SHA-256 of what the program was handed, when the server answered
 */
export function httpRecord(method: string, target: string, outcome: number | string, bytes: number, durationMs: number, answer?: string): ToolCallRecord {
  const ms = Math.round(durationMs);
  const ok = typeof outcome === 'number' && outcome < 400;
  const tail = typeof outcome === 'number' ? `${outcome}, ${formatBytes(bytes)}, ${ms} ms` : `${outcome} (${ms} ms)`;
  return { tool: 'http', summary: `${method} ${target} → ${tail}`, ok, durationMs: ms, bytes, ...(answer ? { answer } : {}) };
}

/** Most tool calls listed in the feedback to the model. */
export const FEEDBACK_CALLS = 10;

/** The calls as lines for the model's feedback: the first {@link FEEDBACK_CALLS}, then how many more. */
export function toolCallsText(calls: readonly ToolCallRecord[]): string {
  const lines = calls.slice(0, FEEDBACK_CALLS).map((c) => `- ${c.summary}`);
  if (calls.length > FEEDBACK_CALLS) lines.push(`- … ${calls.length - FEEDBACK_CALLS} more`);
  return lines.join('\n');
}

/** The line shown for a record: `🔧 <summary>`. */
export const toolCallLine = (record: ToolCallRecord): string => `🔧 ${record.summary}`;
