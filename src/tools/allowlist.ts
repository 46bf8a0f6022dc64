/**
 * The HTTP tool's allowlist (`tools.http.allow`): entries `host`, `*.domain` and `host:port`
 * (an IPv6 address in brackets), and the rule for the addresses a name resolves to: an address
 * that is not public (loopback, private, link-local such as 169.254.169.254, carrier-grade NAT,
 * unique-local, multicast, unspecified…) is reached only when the allowlist names it itself.
 */
import { BlockList, isIP } from 'node:net';
import { defaultPort, normalizeHost, parseHostRule, type HostRule } from '../config/host-rule.js';

export { defaultPort, normalizeHost, parseHostRule, type HostRule } from '../config/host-rule.js';

/** True when `rule` names `host` (lowercase, no brackets) at `port`. */
export function ruleMatches(rule: HostRule, host: string, port: number, scheme: 'http' | 'https'): boolean {
  const portOk = rule.port === null ? port === defaultPort(scheme) : port === rule.port;
  if (!portOk) return false;
  const name = normalizeHost(host);
  return rule.wildcard ? name.endsWith(`.${rule.host}`) : name === rule.host;
}


/** Address ranges that are not the public internet: reached only when listed themselves. */
const NOT_PUBLIC = (() => {
  const list = new BlockList();
  for (const [net, bits] of [
    ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16],
    ['172.16.0.0', 12], ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
  ] as const) list.addSubnet(net, bits, 'ipv4');
  for (const [net, bits] of [
    ['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96], ['2001:db8::', 32],
  ] as const) list.addSubnet(net, bits, 'ipv6');
  return list; // IPv4-mapped IPv6 addresses are checked as IPv4 (normalizeHost): Node's list would match every IPv4 address to ::ffff:0:0/96
})();

/** True when `address` (an IP address) is loopback, private, link-local or otherwise not public. */
export function isSpecialAddress(address: string): boolean {
  const a = normalizeHost(address);
  const family = isIP(a);
  if (family === 0) return true; // not an address at all: never trusted
  return NOT_PUBLIC.check(a, family === 4 ? 'ipv4' : 'ipv6');
}

/** The allowlist of one conversation, with its decisions. */
export class Allowlist {
  readonly rules: readonly HostRule[];

  constructor(entries: readonly string[]) {
    this.rules = entries.map(parseHostRule);
  }

  /** The entry that allows `host:port`, or undefined. */
  match(host: string, port: number, scheme: 'http' | 'https'): HostRule | undefined {
    return this.rules.find((r) => ruleMatches(r, host, port, scheme));
  }

  /**
   * Why connecting to `address` (what the name resolved to) is refused, or undefined when it is
   * allowed: a public address is, a special one only when an entry names that address at that port.
   */
  refuseAddress(address: string, port: number, scheme: 'http' | 'https'): string | undefined {
    if (!isSpecialAddress(address)) return undefined;
    if (this.rules.some((r) => !r.wildcard && isIP(r.host) !== 0 && ruleMatches(r, address, port, scheme))) return undefined;
    return `it resolves to ${normalizeHost(address)}, a loopback, private or link-local address that tools.http.allow does not list`;
  }
}
