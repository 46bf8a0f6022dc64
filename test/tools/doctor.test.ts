/** `code-agent doctor` on the tools: hosts, methods, who may use them, sources without credentials. */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runDoctor } from '../../adapters/cli/doctor.js';
import { parseConfig } from '../../src/config/load.js';
import { sourceWhere } from '../../src/tools/doctor.js';
import { tempDir } from '../sandbox/helpers.js';
import { startPostgres } from '../helpers/servers.js';
import { createReader } from './sql-fixtures.js';

async function doctor(tools: Record<string, unknown>, json = false): Promise<{ code: number; text: string }> {
  const out = new PassThrough();
  let text = '';
  out.on('data', (c: Buffer) => (text += c.toString()));
  const code = await runDoctor(parseConfig({ sandbox: { warm_pool: 0 }, tools }, { RATES_TOKEN: 'tok-123456' }), { json }, out);
  return { code, text };
}

describe('code-agent doctor: tools', () => {
  it('says when no tool is configured', async () => {
    const { code, text } = await doctor({});
    expect(code).toBe(0);
    expect(text).toContain('tools:\n  none configured (tools.http.allow, tools.sql.sources)\n');
  }, 60_000);

  it('lists the allowed hosts, methods, who may use them and where headers are added, never the header values', async () => {
    const { text } = await doctor({
      http: {
        allow: ['api.example.com', '*.corp.example.com', '127.0.0.1:8080'],
        headers: { 'api.example.com': { Authorization: 'Bearer ${RATES_TOKEN}' } },
        conversations: ['C0123'],
      },
    });
    expect(text).toContain('  http        on   api.example.com, *.corp.example.com, 127.0.0.1:8080\n');
    expect(text).toContain('              methods GET, HEAD; used by the terminal and C0123\n');
    expect(text).toContain('              headers added for api.example.com\n');
    expect(text).not.toContain('tok-123456');
  }, 60_000);

  it('checks each source answers: exit 1 and why when one does not', async () => {
    const file = join(tempDir('doctor-sql-'), 'shop.db');
    execFileSync('/usr/bin/python3', ['-c', 'import sqlite3, sys; sqlite3.connect(sys.argv[1]).execute("CREATE TABLE t (x)")', file]);
    const { code, text } = await doctor({ sql: { sources: { shop: { url: `sqlite://${file}`, conversations: 'all' }, gone: { url: 'sqlite:///nonexistent/gone.db' } } } });
    expect(text).toContain(`  sql shop    ok   sqlite:${file}; used by all conversations\n`);
    expect(text).toMatch(/ {2}sql gone {4}BAD {2}sqlite:\/nonexistent\/gone\.db; used by the terminal only: does not answer: .+\n/);
    expect(code).toBe(1);
  }, 60_000);

  it('says what each PostgreSQL role may do: a reader, a refused superuser, and an allowed one with a warning', async () => {
    const server = await startPostgres();
    try {
      const reader = await createReader(server.url);
      const { code, text } = await doctor({
        sql: {
          sources: {
            shop: { url: reader },
            admin: { url: server.url },
            ops: { url: server.url, privileged_role: 'allow' },
          },
        },
      });
      const where = sourceWhere(server.url);
      expect(text).toContain(`  sql shop    ok   ${where}; used by the terminal only; role reader (reads only)\n`);
      expect(text).toContain(`  sql admin   BAD  ${where}; used by the terminal only; role postgres: the role postgres of the SQL source admin is a superuser;`);
      expect(text).toMatch(/ {2}sql ops {5}ok {3}\S+; used by the terminal only; role postgres\n {14}WARNING: the role postgres of the SQL source ops is a superuser; .*allowed by tools\.sql\.sources\.ops\.privileged_role: allow/);
      expect(code).toBe(1);
    } finally {
      await server.stop();
    }
  }, 60_000);

  it('names a source by where it is, without its user or password', () => {
    expect(sourceWhere('postgresql://reader:s3cret@db.internal:5432/shop')).toBe('postgresql://db.internal:5432/shop');
    expect(sourceWhere('sqlite://data/shop.db')).toBe('sqlite:data/shop.db');
  });
});
