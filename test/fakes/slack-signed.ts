/**
 * Sends what Slack sends to an app's Request URL, signed like Slack signs it
 * (https://docs.slack.dev/authentication/verifying-requests-from-slack): `v0=` + hex HMAC-SHA256 of
 * `v0:<timestamp>:<raw body>` with the signing secret, in `X-Slack-Signature`, the timestamp (s) in
 * `X-Slack-Request-Timestamp`. Slash commands are form-encoded; events are JSON.
 */
import { createHmac } from 'node:crypto';
import { eventCallback, slashPayload, type SlashFields } from './slack-payloads.js';

export type { SlashFields } from './slack-payloads.js';

/** An HTTP answer from the app. */
export interface AppResponse {
  status: number;
  /** Parsed JSON when the body is JSON, else the text ('' for an empty ack). */
  body: unknown;
  /** Time from sending to the full response, in ms. */
  ms: number;
}

/** The signature headers for a body. */
export function signatureHeaders(secret: string, body: string, timestamp = Math.floor(Date.now() / 1000)): Record<string, string> {
  const signature = `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
  return { 'x-slack-signature': signature, 'x-slack-request-timestamp': String(timestamp) };
}

/** POSTs a signed body to the app. */
export async function postSigned(url: string, secret: string, body: string, contentType: string, headers: Record<string, string> = {}): Promise<AppResponse> {
  const started = performance.now();
  const res = await fetch(url, { method: 'POST', body, headers: { 'content-type': contentType, ...signatureHeaders(secret, body), ...headers } });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : '';
  } catch {
    /* plain text */
  }
  return { status: res.status, body: parsed, ms: performance.now() - started };
}

/** Sends a slash command (form-encoded) to `<appUrl>/slack/events`. */
export function sendCommand(appUrl: string, secret: string, fields: SlashFields, headers: Record<string, string> = {}): Promise<AppResponse> {
  return postSigned(`${appUrl}/slack/events`, secret, new URLSearchParams(slashPayload(fields)).toString(), 'application/x-www-form-urlencoded', headers);
}

/** Sends an Events API `event_callback` (JSON); `retryNum` adds Slack's retry headers. */
export function sendEvent(appUrl: string, secret: string, event: Record<string, unknown>, options: { eventId?: string; retryNum?: number; teamId?: string } = {}): Promise<AppResponse> {
  const body = JSON.stringify(eventCallback(event, options));
  const headers: Record<string, string> =
    options.retryNum !== undefined ? { 'x-slack-retry-num': String(options.retryNum), 'x-slack-retry-reason': 'http_timeout' } : {};
  return postSigned(`${appUrl}/slack/events`, secret, body, 'application/json', headers);
}

/** Sends an interaction payload (a button click, a modal submission) form-encoded as `payload=<json>`. */
export function sendInteraction(appUrl: string, secret: string, payload: Record<string, unknown>): Promise<AppResponse> {
  return postSigned(`${appUrl}/slack/events`, secret, new URLSearchParams({ payload: JSON.stringify(payload) }).toString(), 'application/x-www-form-urlencoded');
}
