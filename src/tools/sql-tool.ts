/**
 * The SQL tool as the agent and the broker see it: which conversation may use which source, the
 * text telling the model each source with its tables and columns, and the broker's `/sql` route.
 * The engine (opening sources, running a query under the rules) is behind {@link SqlEngine}.
 */
import { conversationAllowed } from './access.js';
import type { ToolsConfig } from '../config/tools-schema.js';
import type { RouteAnswer, RouteHandler, Tool } from './types.js';

/** What runs queries: opened once per process, shared by every execution. */
export interface SqlEngine {
  /**
   * Serves one `/sql` call: `payload` is the program's `{source, query, params}`; a source for
   * which `allowed(name)` is false is refused (403). Never throws.
   */
  call(allowed: (name: string) => boolean, payload: unknown, signal: AbortSignal): Promise<RouteAnswer>;
  /** The source's tables and columns as text for the model, bounded. @throws {Error} when it cannot be read */
  describe(name: string, signal?: AbortSignal): Promise<string>;
  /** Checks the source answers. @throws {Error} saying why not */
  ping(name: string, signal?: AbortSignal): Promise<void>;
  /**
   * What the source's role may do beyond reading (`privileges` empty for a reader); undefined for
   * a source without a role (SQLite). `usable` is false when the source refuses the role; `fix`
   * holds the lines that say how to make it a reader (a heading, then one SQL statement each).
   * @throws {Error} when it cannot be read
   */
  inspect(name: string): Promise<{ role: { role: string; privileges: string[] }; usable: boolean; warning?: string; fix?: string[] } | undefined>;
  /** Says, through `warn`, each source whose role may do more than read, with the statements that fix it. Never throws. */
  announce(warn: (message: string) => void): Promise<void>;
  close(): Promise<void>;
}

/** How long describing one source may take before the model is told without its tables, in ms. */
export const DESCRIBE_TIMEOUT_MS = 5000;
/** How long a source's description is reused (every attempt's prompt has it), in ms. */
export const DESCRIBE_CACHE_MS = 60_000;

/** `tools.sql` as a {@link Tool}. */
export class SqlTool implements Tool {
  readonly name = 'sql';

  private readonly described = new Map<string, { text: string; at: number }>();

  constructor(readonly config: ToolsConfig['sql'], readonly engine: SqlEngine) {}

  /** A source's description, read at most every {@link DESCRIBE_CACHE_MS} (a failure is not kept). */
  private async description(name: string, signal?: AbortSignal): Promise<string> {
    const cached = this.described.get(name);
    if (cached && Date.now() - cached.at < DESCRIBE_CACHE_MS) return cached.text;
    const timeout = AbortSignal.timeout(DESCRIBE_TIMEOUT_MS);
    try {
      const text = await this.engine.describe(name, signal ? AbortSignal.any([signal, timeout]) : timeout);
      this.described.set(name, { text, at: Date.now() });
      return text;
    } catch (err) {
      return `${name} (its tables could not be read: ${(err as Error).message})`;
    }
  }

  /** The sources `conversationId` may use. */
  sourcesFor(conversationId: string): string[] {
    return Object.entries(this.config.sources)
      .filter(([, s]) => conversationAllowed(s.conversations, conversationId))
      .map(([name]) => name);
  }

  allows(conversationId: string): boolean {
    return this.sourcesFor(conversationId).length > 0;
  }

  async describe(conversationId: string, signal?: AbortSignal): Promise<string | undefined> {
    const names = this.sourcesFor(conversationId);
    if (names.length === 0) return undefined;
    const described = await Promise.all(names.map((n) => this.description(n, signal)));
    return [
      'SQL: `from tools import sql`, then `df = sql("<source>", "SELECT …", [params])` returns a pandas DataFrame.',
      'One read-only statement per call (SELECT or WITH); pass values as params ($1, $2… for PostgreSQL, ? for SQLite), never formatted into the text. Results are capped in rows, bytes and time.',
      'Sources:',
      ...described,
    ].join('\n');
  }

  /** The `/sql` route of one execution: the conversation's sources, at most `tools.sql.max_calls` calls. */
  routes(conversationId: string): Record<string, RouteHandler> {
    const allowed = new Set(this.sourcesFor(conversationId));
    if (allowed.size === 0) return {};
    const max = this.config.max_calls;
    let calls = 0;
    return {
      sql: async (payload, signal) => {
        if (++calls > max) {
          const error = `this execution already made ${max} sql calls, the most allowed (tools.sql.max_calls)`;
          return { status: 429, body: { error }, record: { tool: 'sql', summary: 'sql: refused (too many calls)', ok: false, durationMs: 0, bytes: 0 } };
        }
        return this.engine.call((name) => allowed.has(name), payload, signal);
      },
    };
  }
}
