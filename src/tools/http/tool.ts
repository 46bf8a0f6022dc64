/** The HTTP tool: the allowed hosts, served by the broker as a forward proxy (no route of its own). */
import { conversationAllowed } from '../access.js';
import type { HttpToolConfig } from '../../config/tools-schema.js';
import type { Tool } from '../types.js';
import { HttpPolicy, type HttpPolicyOptions } from './policy.js';

/** `tools.http` as a {@link Tool}. */
export class HttpTool implements Tool {
  readonly name = 'http';
  /** The rules every conversation that may use the tool gets (one allowlist for all). */
  readonly policy: HttpPolicy;

  constructor(readonly config: HttpToolConfig, options: HttpPolicyOptions = {}) {
    this.policy = new HttpPolicy(config, options);
  }

  allows(conversationId: string): boolean {
    return this.config.allow.length > 0 && conversationAllowed(this.config.conversations, conversationId);
  }

  async describe(conversationId: string): Promise<string | undefined> {
    if (!this.allows(conversationId)) return undefined;
    const hosts = this.policy.allow.rules.map((r) => {
      const name = r.wildcard ? `any host under ${r.host}` : r.host.includes(':') ? `[${r.host}]` : r.host;
      return r.port === null ? `${name} (http and https)` : `${name}:${r.port}`;
    });
    const withHeaders = Object.keys(this.config.headers);
    return [
      `HTTP: the program may fetch these hosts, and only these: ${hosts.join('; ')}.`,
      'Use ordinary code: urllib.request, requests, or pandas.read_csv(url) / pandas.read_json(url); the sandbox routes them through a proxy.',
      withHeaders.length > 0
        ? `The proxy adds the credentials for ${withHeaders.join(', ')} itself: send no Authorization or API key header and do not ask for one.`
        : 'No credentials are needed from the program.',
      `Methods: ${[...this.policy.methods].join(', ')}. Any other host, method or a redirect elsewhere fails at once with a 403/405 saying why; responses are capped at ${this.config.max_response_mb} MB and ${this.config.timeout_s} s.`,
    ].join('\n');
  }
}
