/**
 * `code-agent doctor`'s Matrix line: when `matrix.homeserver_url` is set, whether the homeserver
 * answers (`/_matrix/client/versions`) and whose the access token is (`/account/whoami`).
 * Source: https://spec.matrix.org/v1.11/client-server-api/#get_matrixclientv3accountwhoami
 */
import type { Config } from '../../src/config/schema.js';

/** What the check found; `ok` false: the homeserver did not answer or refused the token. */
export interface MatrixReport {
  homeserver: string;
  ok: boolean;
  detail: string;
}

/** How long each request may take, in ms. */
const TIMEOUT_MS = 10_000;

/** Checks the homeserver and the token. @returns undefined when no homeserver is configured. Never throws. */
export async function matrixReport(config: Config): Promise<MatrixReport | undefined> {
  const url = config.matrix?.homeserver_url?.replace(/\/+$/, '');
  if (!url) return undefined;
  const get = async (path: string, token?: string) => {
    const res = await fetch(`${url}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {}, signal: AbortSignal.timeout(TIMEOUT_MS) });
    const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    return { status: res.status, body };
  };
  try {
    const versions = await get('/_matrix/client/versions');
    if (versions.status !== 200) return { homeserver: url, ok: false, detail: `the homeserver answered HTTP ${versions.status} to /_matrix/client/versions` };
    const token = config.matrix?.access_token;
    if (!token) return { homeserver: url, ok: false, detail: 'the homeserver answers, but matrix.access_token is not set' };
    const who = await get('/_matrix/client/v3/account/whoami', token);
    if (who.status !== 200) return { homeserver: url, ok: false, detail: `the homeserver refused matrix.access_token (HTTP ${who.status} ${String(who.body.errcode ?? '')})` };
    return { homeserver: url, ok: true, detail: `the homeserver answers; the token is ${String(who.body.user_id)}'s` };
  } catch (err) {
    return { homeserver: url, ok: false, detail: `the homeserver did not answer: ${(err as Error).message}` };
  }
}

/** The report as a line of the doctor's text. */
export function formatMatrix(report: MatrixReport | undefined): string {
  return report ? `matrix: ${report.ok ? 'ok' : 'FAILED'}  ${report.homeserver}: ${report.detail}\n` : '';
}
