/** Which conversation may use which tool, and what its model is told. */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../sandbox/helpers.js';
import { parseConfig } from '../../src/config/load.js';
import { Toolbox } from '../../src/tools/toolbox.js';
import { systemPrompt } from '../../src/agent/replies/index.js';
import { describeResult } from '../../src/agent/failures/index.js';

const toolbox = (tools: unknown) => new Toolbox(parseConfig({ tools }, { TOKEN: 'tok-abcdef' }).tools);
const SLACK = 'slack:T01:C0123';
const DISCORD = 'discord:555:777';

describe('tools per conversation', () => {
  it('by default only the terminal may use a tool', async () => {
    const box = toolbox({ http: { allow: ['api.example.com'] }, sql: { sources: { shop: { url: 'sqlite://shop.db' } } } });
    expect(box.allowedIn('cli:local').map((t) => t.name)).toEqual(['http', 'sql']);
    expect(box.allowedIn(SLACK)).toEqual([]);
    expect(box.brokerFor(SLACK)).toBeUndefined();
    expect(await box.describe(SLACK)).toBe('');
    expect(box.brokerFor('cli:local')).toBeDefined();
  });

  it('conversations: a channel id or a whole conversation id, or all', () => {
    const box = toolbox({
      http: { allow: ['api.example.com'], conversations: ['C0123'] },
      sql: { sources: { shop: { url: 'sqlite://shop.db', conversations: [DISCORD] }, hr: { url: 'sqlite://hr.db', conversations: 'all' } } },
    });
    expect(box.allowedIn(SLACK).map((t) => t.name)).toEqual(['http', 'sql']);
    expect(box.sql.sourcesFor(SLACK)).toEqual(['hr']);
    expect(box.sql.sourcesFor(DISCORD)).toEqual(['shop', 'hr']);
    expect(box.http.allows(DISCORD)).toBe(false);
    expect(box.http.allows('slack:T01:C0999')).toBe(false);
  });

  it('the model is told the hosts, how to call them and that credentials are added for it, never the credential', async () => {
    const box = toolbox({ http: { allow: ['api.example.com', '*.corp.example.com', '127.0.0.1:8080'], headers: { 'api.example.com': { Authorization: 'Bearer ${TOKEN}' } } } });
    const text = await box.describe('cli:local');
    expect(text).toContain('HTTP: the program may fetch these hosts, and only these: api.example.com (http and https); any host under corp.example.com (http and https); 127.0.0.1:8080.');
    expect(text).toContain('urllib.request, requests, or pandas.read_csv(url)');
    expect(text).toContain('The proxy adds the credentials for api.example.com itself');
    expect(text).toContain('Methods: GET, HEAD.');
    expect(text).not.toContain('tok-abcdef');
    const system = systemPrompt(undefined, text);
    expect(system).toContain('no network except the tools below');
    expect(system.endsWith(text)).toBe(true);
    expect(systemPrompt()).toContain('no input(), no network, no package installs');
  });

  it('the SQL tool is described with each source and its tables, read from the database', async () => {
    const file = join(tempDir('toolbox-sql-'), 'shop.db');
    execFileSync('/usr/bin/python3', ['-c', 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("CREATE TABLE orders (id INTEGER, total REAL)"); c.commit()', file]);
    const box = toolbox({ sql: { sources: { shop: { url: `sqlite://${file}` }, gone: { url: 'sqlite:///nonexistent/x.db' } } } });
    const text = await box.describe('cli:local');
    await box.close();
    expect(text).toContain('`from tools import sql`, then `df = sql("<source>", "SELECT …", [params])` returns a pandas DataFrame.');
    expect(text).toMatch(/Sources:\nshop \(\w+\), 1 table:\n  orders\(id integer, total real\)\ngone \(its tables could not be read: /);
  });
});

describe('tool calls in the feedback to the model', () => {
  it('lists the calls with the rule that refused one, at most 10', () => {
    const call = (summary: string, ok = true) => ({ tool: 'http', summary, ok, durationMs: 1, bytes: 0 });
    const result = {
      success: false, stdout: '', stderr: 'JSONDecodeError: Expecting value', exitCode: 1, signal: null, timedOut: false, limitHit: null, durationMs: 5, artifacts: [],
      toolCalls: [call('GET api.example.com/v1 → 200, 1.0 KB, 3 ms'), call('GET evil.example.com/ → refused: http://evil.example.com:80 is not in tools.http.allow (allowed: api.example.com) (1 ms)', false)],
    };
    expect(describeResult(result)).toContain('Tool calls:\n- GET api.example.com/v1 → 200, 1.0 KB, 3 ms\n- GET evil.example.com/ → refused: http://evil.example.com:80 is not in tools.http.allow');
    const many = { ...result, toolCalls: Array.from({ length: 12 }, (_, i) => call(`GET a.example.com/${i} → 200, 1 B, 1 ms`)) };
    expect(describeResult(many)).toMatch(/- GET a\.example\.com\/9 → 200, 1 B, 1 ms\n- … 2 more$/);
  });
});
