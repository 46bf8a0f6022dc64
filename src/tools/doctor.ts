/**
 * What `code-agent doctor` says about the tools: the HTTP tool's hosts, methods and who may use
 * it; each SQL source (where it is, without credentials), who may use it, and whether it answers.
 */
import { describeConversations } from './access.js';
import type { Toolbox } from './toolbox.js';

/** How long one source may take to answer the doctor, in ms. */
export const PING_TIMEOUT_MS = 5000;

/** One SQL source in the report. */
export interface SourceReport {
  name: string;
  /** Where it is, without user or password: `postgresql://db:5432/shop`, `sqlite:data/shop.db`. */
  where: string;
  conversations: string;
  /** True when it answered. */
  ok: boolean;
  /** Why it did not answer. */
  error?: string;
  /** PostgreSQL: the role, and what it may do beyond reading (empty: a reader). */
  role?: { name: string; privileges: string[] };
  /** The loud sentence for a role that may do more than read and is allowed to. */
  warning?: string;
  /** How to make the role a reader: a heading, then one SQL statement each. */
  fix?: string[];
}

/** The tools part of the doctor's report. */
export interface ToolsReport {
  http: { allow: string[]; headersFor: string[]; methods: string[]; conversations: string } | null;
  sql: SourceReport[];
}

/** A source URL without its credentials (never printed: they are secrets). */
export function sourceWhere(url: string): string {
  try {
    const u = new URL(url);
    if (u.protocol === 'sqlite:') return `sqlite:${decodeURIComponent(url.slice('sqlite:'.length).replace(/^\/\//, '').replace(/\?.*$/, ''))}`;
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return url.replace(/\/\/[^@/]*@/, '//');
  }
}

/** Builds the report; pings every source (at most {@link PING_TIMEOUT_MS} each, all at once). */
export async function toolsReport(toolbox: Toolbox): Promise<ToolsReport> {
  const http = toolbox.config.http;
  const sql = await Promise.all(
    Object.entries(toolbox.config.sql.sources).map(async ([name, source]): Promise<SourceReport> => {
      const base = { name, where: sourceWhere(source.url), conversations: describeConversations(source.conversations) };
      try {
        const inspected = await toolbox.sql.engine.inspect(name);
        const role = inspected ? { role: { name: inspected.role.role, privileges: inspected.role.privileges }, ...(inspected.fix?.length ? { fix: inspected.fix } : {}) } : {};
        if (inspected && !inspected.usable) return { ...base, ...role, ok: false, error: inspected.warning };
        await toolbox.sql.engine.ping(name, AbortSignal.timeout(PING_TIMEOUT_MS));
        return { ...base, ...role, ok: true, ...(inspected?.warning ? { warning: inspected.warning } : {}) };
      } catch (err) {
        return { ...base, ok: false, error: (err as Error).message };
      }
    }),
  );
  return {
    http: http.allow.length === 0 ? null : { allow: http.allow, headersFor: Object.keys(http.headers), methods: http.methods, conversations: describeConversations(http.conversations) },
    sql,
  };
}

/** The report as aligned lines. */
export function formatTools(r: ToolsReport): string {
  const lines = ['tools:'];
  if (!r.http && r.sql.length === 0) lines.push('  none configured (tools.http.allow, tools.sql.sources)');
  if (r.http) {
    lines.push(`  http        on   ${r.http.allow.join(', ')}`);
    lines.push(`              methods ${r.http.methods.join(', ')}; used by ${r.http.conversations}`);
    if (r.http.headersFor.length) lines.push(`              headers added for ${r.http.headersFor.join(', ')}`);
  }
  for (const s of r.sql) {
    const role = s.role ? `; role ${s.role.name}${s.role.privileges.length ? '' : ' (reads only)'}` : '';
    const bad = s.role && s.role.privileges.length && !s.ok ? `: ${s.error}` : `: does not answer: ${s.error}`;
    lines.push(`  sql ${s.name.padEnd(8)}${s.ok ? 'ok ' : 'BAD'}  ${s.where}; used by ${s.conversations}${role}${s.ok ? '' : bad}`);
    if (s.warning) lines.push(`              WARNING: ${s.warning}`);
    for (const line of s.fix ?? []) lines.push(`              ${line}`);
  }
  return `${lines.join('\n')}\n`;
}
