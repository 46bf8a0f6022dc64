/**
 * The configured tools, per conversation: which a conversation may use, what the model is told
 * about them, and the broker each execution of that conversation gets.
 */
import { readFileSync } from 'node:fs';
import { ToolBroker } from './broker.js';
import type { ToolsConfig } from '../config/tools-schema.js';
import { HttpTool } from './http/tool.js';
import type { Resolver } from './http/policy.js';
import { SqlTool, type SqlEngine } from './sql-tool.js';
import { SqlSources } from './sql/engine.js';
import type { Tool, ToolBrokerStarter } from './types.js';

/** How the tools reach the outside, besides the config. */
export interface ToolboxOptions {
  /** Resolves host names for the HTTP tool (default: the system's). */
  resolve?: Resolver;
  /** Runs SQL queries (default: the configured sources, opened here: sql/engine.ts). */
  sql?: SqlEngine;
}

/** Every configured tool. */
export class Toolbox {
  readonly http: HttpTool;
  readonly sql: SqlTool;

  /**
   * @throws {Error} when `tools.http.ca_file` cannot be read (its path in the message), or a
   *   source's URL cannot be opened (its name in the message, never the URL)
   */
  constructor(readonly config: ToolsConfig, options: ToolboxOptions = {}) {
    let extraCa: string | undefined;
    if (config.http.ca_file) {
      try {
        extraCa = readFileSync(config.http.ca_file, 'utf8');
      } catch (err) {
        throw new Error(`tools.http.ca_file: cannot read ${config.http.ca_file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
      }
    }
    this.http = new HttpTool(config.http, { resolve: options.resolve, extraCa });
    this.sql = new SqlTool(config.sql, options.sql ?? new SqlSources(config.sql.sources));
  }

  /** Every tool, configured or not. */
  get tools(): Tool[] {
    return [this.http, this.sql];
  }

  /** The tools `conversationId` may use. */
  allowedIn(conversationId: string): Tool[] {
    return this.tools.filter((t) => t.allows(conversationId));
  }

  /** The broker for an execution in `conversationId`, or undefined when it may use no tool. */
  brokerFor(conversationId: string): ToolBrokerStarter | undefined {
    if (this.allowedIn(conversationId).length === 0) return undefined;
    return new ToolBroker({
      http: this.http.allows(conversationId) ? this.http.policy : undefined,
      routes: () => this.sql.routes(conversationId),
    });
  }

  /**
   * What the model is told about the tools of `conversationId` ('' when it may use none): each
   * tool's text, the hosts and the sources with their tables.
   */
  async describe(conversationId: string, signal?: AbortSignal): Promise<string> {
    const parts = (await Promise.all(this.allowedIn(conversationId).map((t) => t.describe(conversationId, signal)))).filter((p): p is string => !!p);
    if (parts.length === 0) return '';
    return ['Tools this program may use (and nothing else outside the sandbox):', ...parts].join('\n');
  }

  /** Closes what the tools keep open (SQL connections). */
  close(): Promise<void> {
    return this.sql.engine.close();
  }
}
