/** The `tools` section of config.yaml: defaults, and every bad key reported by its path. */
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/config/load.js';
import { isSpecialAddress, parseHostRule, ruleMatches } from '../../src/tools/allowlist.js';

const problems = (tools: unknown): string => {
  try {
    parseConfig({ tools }, {});
  } catch (err) {
    if (err instanceof ConfigError) return err.message;
    throw err;
  }
  return '';
};

describe('tools config', () => {
  it('defaults to no host, GET and HEAD, no source', () => {
    const { tools } = parseConfig({}, {});
    expect(tools.http).toMatchObject({ allow: [], headers: {}, methods: ['GET', 'HEAD'], max_response_mb: 10, timeout_s: 30, max_calls: 100 });
    expect(tools.http.conversations).toBeUndefined();
    expect(tools.sql.sources).toEqual({});
  });

  it('expands ${VAR} in header values and source URLs', () => {
    const { tools } = parseConfig(
      { tools: { http: { allow: ['api.example.com'], headers: { 'api.example.com': { Authorization: 'Bearer ${TOKEN}' } } }, sql: { sources: { shop: { url: 'postgresql://r:${PW}@db/shop', conversations: 'all' } } } } },
      { TOKEN: 't-1', PW: 'p-2' },
    );
    expect(tools.http.headers['api.example.com']).toEqual({ Authorization: 'Bearer t-1' });
    expect(tools.sql.sources.shop).toMatchObject({ url: 'postgresql://r:p-2@db/shop', conversations: 'all' });
  });

  it('refuses a credential whose ${VAR} is not set (it would be sent empty); ${VAR:-} allows it empty', () => {
    const tools = { http: { allow: ['api.example.com'], headers: { 'api.example.com': { Authorization: 'Bearer ${TOKEN}' } } }, sql: { sources: { shop: { url: 'postgresql://r:${PW}@db/shop' } } } };
    const err = (() => {
      try {
        parseConfig({ tools }, { PW: '' });
      } catch (e) {
        return e as ConfigError;
      }
    })();
    expect(err).toBeInstanceOf(ConfigError);
    expect(err!.problems).toEqual([
      { path: 'tools.http.headers.api.example.com.Authorization', problem: expect.stringContaining('${TOKEN} is not set in the environment, so this credential would be sent empty') },
      { path: 'tools.sql.sources.shop.url', problem: expect.stringContaining('${PW} is not set') },
    ]);
    expect(err!.message).not.toContain('Bearer'); // the value itself is never repeated
    const allowed = { http: { ...tools.http, headers: { 'api.example.com': { 'X-Trace': '${TRACE:-}' } } } };
    expect(parseConfig({ tools: allowed }, {}).tools.http.headers['api.example.com']).toEqual({ 'X-Trace': '' });
  });

  it.each([
    [{ http: { allow: ['api example.com'] } }, 'tools.http.allow.0: "api example.com": "api example.com" is not a host name'],
    [{ http: { allow: ['api.example.com:99999'] } }, 'tools.http.allow.0: "api.example.com:99999": port 99999 is out of range'],
    [{ http: { allow: ['*.10.0.0.1'] } }, 'tools.http.allow.0: "*.10.0.0.1": *. goes with a domain name, not an address'],
    [{ http: { allow: ['::1'] } }, 'tools.http.allow.0: "::1": expected host, *.domain or host:port'],
    [{ http: { allow: ['a.com'], headers: { 'b.com': { 'X-Key': 'k' } } } }, 'tools.http.headers.b.com: "b.com" is not an entry of tools.http.allow'],
    [{ http: { allow: ['a.com'], headers: { 'a.com': { 'Bad Name': 'k' } } } }, 'tools.http.headers.a.com.Bad Name: expected a header name'],
    [{ http: { allow: ['a.com'], headers: { 'a.com': { Host: 'evil.com' } } } }, 'tools.http.headers.a.com.Host: the broker sets this header itself'],
    [{ http: { allow: ['a.com'], headers: { 'a.com': { 'X-Key': 'a\r\nX-Injected: 1' } } } }, 'tools.http.headers.a.com.X-Key: a header value cannot hold a line break'],
    [{ http: { methods: ['GET', 'BREW'] } }, 'tools.http.methods.1:'],
    [{ http: { conversations: 'some' } }, 'tools.http.conversations: expected "all" or a list of conversation (channel) ids'],
    [{ http: { max_response_mb: -1 } }, 'tools.http.max_response_mb:'],
    [{ http: { conversations: [1234567890123456789] } }, 'tools.http.conversations.0: a long id must be quoted'],
    [{ http: { allowed: [] } }, 'tools.http: unknown key allowed'],
    [{ sql: { sources: { shop: { url: 'mysql://db/shop' } } } }, 'tools.sql.sources.shop.url: expected a postgresql:// URL or sqlite:///path.db'],
    [{ sql: { sources: { 'my shop': { url: 'sqlite://a.db' } } } }, 'tools.sql.sources.my shop:'],
    [{ sql: { sources: { shop: { url: 'sqlite://a.db', password: 'x' } } } }, 'tools.sql.sources.shop: unknown key password'],
  ])('%j is refused: %s', (tools, message) => {
    expect(problems(tools)).toContain(message);
  });
});

describe('allowlist entries', () => {
  it('a bare host means the default port of the scheme; host:port that port only; *.domain the names under it', () => {
    const bare = parseHostRule('API.example.com');
    expect(ruleMatches(bare, 'api.example.com', 80, 'http')).toBe(true);
    expect(ruleMatches(bare, 'api.example.com', 443, 'https')).toBe(true);
    expect(ruleMatches(bare, 'api.example.com', 8080, 'http')).toBe(false);
    expect(ruleMatches(bare, 'api.example.com.', 443, 'https')).toBe(true);
    expect(ruleMatches(bare, 'x.api.example.com', 443, 'https')).toBe(false);
    const port = parseHostRule('127.0.0.1:8080');
    expect(ruleMatches(port, '127.0.0.1', 8080, 'http')).toBe(true);
    expect(ruleMatches(port, '127.0.0.1', 80, 'http')).toBe(false);
    expect(ruleMatches(port, '::ffff:127.0.0.1', 8080, 'http')).toBe(true);
    const wild = parseHostRule('*.corp.example.com');
    expect(ruleMatches(wild, 'rates.corp.example.com', 443, 'https')).toBe(true);
    expect(ruleMatches(wild, 'corp.example.com', 443, 'https')).toBe(false);
    expect(ruleMatches(wild, 'evilcorp.example.com', 443, 'https')).toBe(false);
    expect(ruleMatches(parseHostRule('[::1]:8080'), '::1', 8080, 'http')).toBe(true);
  });

  it('loopback, private, link-local, CGNAT, unique-local and mapped addresses are special; public ones are not', () => {
    for (const a of ['127.0.0.1', '127.9.9.9', '10.0.0.1', '172.16.5.4', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fd00::1', 'fe80::1', '::ffff:10.0.0.1', '224.0.0.1']) {
      expect(isSpecialAddress(a), a).toBe(true);
    }
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '172.32.0.1']) expect(isSpecialAddress(a), a).toBe(false);
  });
});
