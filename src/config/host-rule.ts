/**
 * One entry of `tools.http.allow` (`host`, `*.domain`, `host:port`, an IPv6 address in brackets),
 * parsed where the config is validated; the HTTP tool's allowlist (src/tools/allowlist.ts) matches
 * requests against these rules.
 */
import { isIP } from 'node:net';

/** One parsed allowlist entry. */
export interface HostRule {
  /** Lowercase host name or IP address, without brackets; for `*.domain`, the domain. */
  host: string;
  /** `*.domain`: any name under the domain (not the domain itself). */
  wildcard: boolean;
  /** The one port allowed, or null: the scheme's default port only (80 for http, 443 for https). */
  port: number | null;
  /** The entry as written, for messages. */
  text: string;
}

const LABEL = /^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?$/;

/**
 * Parses one entry.
 * @throws {Error} saying what is wrong (the config loader adds the key's path)
 */
export function parseHostRule(entry: string): HostRule {
  const text = entry.trim().toLowerCase();
  const m = /^(\*\.)?(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(text);
  if (!m) throw new Error(`"${entry}": expected host, *.domain or host:port`);
  const wildcard = m[1] !== undefined;
  const host = m[2]!.replace(/^\[|\]$/g, '');
  const port = m[3] === undefined ? null : Number(m[3]);
  if (port !== null && (port < 1 || port > 65535)) throw new Error(`"${entry}": port ${port} is out of range (1-65535)`);
  if (isIP(host) !== 0) {
    if (wildcard) throw new Error(`"${entry}": *. goes with a domain name, not an address`);
    if (m[2]!.startsWith('[') !== (isIP(host) === 6)) throw new Error(`"${entry}": an IPv6 address is written in brackets, [::1]:8080`);
  } else if (!host.split('.').every((l) => LABEL.test(l))) {
    throw new Error(`"${entry}": "${host}" is not a host name`);
  }
  return { host, wildcard, port, text };
}

/** The default port of a scheme. */
export const defaultPort = (scheme: 'http' | 'https'): number => (scheme === 'https' ? 443 : 80);

/** A host as compared: lowercase, no brackets, no trailing dot, an IPv4-mapped IPv6 address as IPv4. */
export function normalizeHost(host: string): string {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h);
  return mapped ? mapped[1]! : h;
}
