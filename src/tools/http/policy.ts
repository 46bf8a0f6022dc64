/**
 * The HTTP tool's rules for one conversation: which hosts (tools.http.allow), which methods, which
 * addresses a name may resolve to, which headers the host side adds, and the caps. Every request —
 * every hop of a redirect, every request inside an https tunnel — is decided here before anything
 * leaves the host, and the connection then goes to the address that was checked (no second lookup,
 * so a name that changes its answer cannot slip past: no DNS rebinding).
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { rootCertificates } from 'node:tls';
import { Allowlist, normalizeHost, ruleMatches, type HostRule } from '../allowlist.js';
import type { HttpToolConfig } from '../../config/tools-schema.js';
import { Redactor } from './redact.js';

/** Resolves a host name to every address it has. */
export type Resolver = (host: string) => Promise<string[]>;

const systemResolver: Resolver = async (host) => (await dnsLookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** The caps of one request, and of one execution. */
export interface HttpCaps {
  /** Largest response body handed to the program, in bytes (a larger one is cut and refused). */
  maxResponseBytes: number;
  /** Longest one request may take, connect to last byte, in ms. */
  timeoutMs: number;
  /** Most requests one execution may make. */
  maxCalls: number;
  /** Most response bytes one execution may receive in all. */
  maxTotalBytes: number;
}

/** How the HTTP tool reaches hosts, besides the rules. */
export interface HttpPolicyOptions {
  /** Resolves names (default: the system's resolver). */
  resolve?: Resolver;
  /** Extra CA certificates (PEM) trusted for https upstream, besides the system's. */
  extraCa?: string;
}

/** Where a request that passed the rules goes. */
export interface CheckedTarget {
  scheme: 'http' | 'https';
  /** Host as the program named it (lowercase, no brackets). */
  host: string;
  port: number;
  /** The checked address to connect to. */
  address: string;
  /** Headers the host side adds for this host (credentials). */
  headers: Record<string, string>;
}

/** A refusal: the status and the sentence the program gets. */
export interface Refusal {
  status: number;
  reason: string;
}

/** The HTTP rules of one conversation. */
export class HttpPolicy {
  readonly allow: Allowlist;
  readonly methods: ReadonlySet<string>;
  readonly caps: HttpCaps;
  private readonly headerRules: Array<{ rule: HostRule; headers: Record<string, string> }>;

  /** CA certificates trusted upstream (PEM): the system's, plus `tools.http.ca_file`'s; undefined: Node's default. */
  readonly upstreamCa: string[] | undefined;
  private readonly resolve: Resolver;

  constructor(config: Pick<HttpToolConfig, 'allow' | 'headers' | 'methods' | 'max_response_mb' | 'timeout_s' | 'max_calls' | 'max_total_mb'>, options: HttpPolicyOptions = {}) {
    this.resolve = options.resolve ?? systemResolver;
    this.upstreamCa = options.extraCa ? [...rootCertificates, options.extraCa] : undefined;
    this.allow = new Allowlist(config.allow);
    this.methods = new Set(config.methods.map((m) => m.toUpperCase()));
    this.caps = {
      maxResponseBytes: Math.floor(config.max_response_mb * 1024 * 1024),
      timeoutMs: Math.round(config.timeout_s * 1000),
      maxCalls: config.max_calls,
      maxTotalBytes: Math.floor(config.max_total_mb * 1024 * 1024),
    };
    this.headerRules = Object.entries(config.headers).map(([entry, headers]) => ({ rule: new Allowlist([entry]).rules[0]!, headers }));
  }

  /** What keeps every configured header value out of what comes back, in every form (redact.ts). */
  get redactor(): Redactor {
    this.#redactor ??= new Redactor(this.headerRules.flatMap((h) => Object.values(h.headers)));
    return this.#redactor;
  }

  #redactor: Redactor | undefined;

  /**
   * Decides one request.
   * @returns where to connect, or the refusal (403 for a rule, 405 for a method, 502 when the name does not resolve)
   */
  async check(method: string, scheme: 'http' | 'https', rawHost: string, port: number): Promise<CheckedTarget | Refusal> {
    return this.refuseMethod(method) ?? this.checkHost(scheme, rawHost, port);
  }

  /** The refusal of a method tools.http.methods does not list, or undefined. */
  refuseMethod(method: string): Refusal | undefined {
    if (this.methods.has(method.toUpperCase())) return undefined;
    return { status: 405, reason: `${method} is not allowed (tools.http.methods allows ${[...this.methods].join(', ')})` };
  }

  /** {@link check} without the method: the host, the port and the addresses (an https CONNECT). */
  async checkHost(scheme: 'http' | 'https', rawHost: string, port: number): Promise<CheckedTarget | Refusal> {
    const host = normalizeHost(rawHost);
    const where = `${host}:${port}`;
    if (!this.allow.match(host, port, scheme)) {
      return { status: 403, reason: `${scheme}://${where} is not in tools.http.allow (allowed: ${this.allow.rules.map((r) => r.text).join(', ') || 'none'})` };
    }
    let addresses: string[];
    if (isIP(host) !== 0) addresses = [host];
    else {
      try {
        addresses = await this.resolve(host);
      } catch (err) {
        return { status: 502, reason: `${host} does not resolve (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` };
      }
      if (addresses.length === 0) return { status: 502, reason: `${host} does not resolve` };
    }
    for (const address of addresses) {
      const why = this.allow.refuseAddress(address, port, scheme);
      if (why) return { status: 403, reason: `${where} is refused: ${why}` };
    }
    const headers: Record<string, string> = {};
    for (const h of this.headerRules) if (sendsHeaders(h.rule, host, port, scheme)) Object.assign(headers, h.headers);
    return { scheme, host, port, address: normalizeHost(addresses[0]!), headers };
  }
}

/**
 * True when the configured headers of `rule` go with a request to `host:port` over `scheme`. An
 * entry without a port (`api.example.com`) allows http on 80 and https on 443, but its credentials
 * go over https only: a program asking for `http://api.example.com/` must not make the host send
 * them in clear text over the network. An entry naming its port (`10.0.0.5:8080`) is the
 * operator's choice of that one endpoint, whatever its scheme.
 */
export function sendsHeaders(rule: HostRule, host: string, port: number, scheme: 'http' | 'https'): boolean {
  return ruleMatches(rule, host, port, scheme) && (scheme === 'https' || rule.port !== null);
}

/** True when `x` is a refusal. */
export const isRefusal = (x: CheckedTarget | Refusal): x is Refusal => 'reason' in x;
