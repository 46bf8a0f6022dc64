/**
 * The SQL tool end to end through the built `code-agent run`: "What was yesterday's signup count?"
 * against the fake OpenAI server and a real PostgreSQL. The model is told the source with its
 * table; the program's `sql(...)` runs on the host; the terminal shows the 🔧 line; the password
 * in the source's URL is in no output, prompt or history; `doctor` says the source answers.
 */
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli, runCli } from '../helpers/cli.js';
import { startPostgres, type TestServer } from '../helpers/servers.js';
import { startFakeOpenAi, type FakeOpenAi } from '../fakes/openai-server.js';
import { routedReplies } from '../helpers/verify-replies.js';

const PASSWORD = 'pw-7c1e9a3b5d';
let db: TestServer;
let fake: FakeOpenAi | undefined;

beforeAll(async () => {
  requireBuiltCli();
  db = await startPostgres();
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  await client.query(`
    CREATE TABLE signups (id serial PRIMARY KEY, email text NOT NULL, created_on date NOT NULL);
    INSERT INTO signups (email, created_on) VALUES
      ('a@x', current_date - 1), ('b@x', current_date - 1), ('c@x', current_date - 1),
      ('d@x', current_date - 2), ('e@x', current_date);
    CREATE ROLE reader LOGIN PASSWORD '${PASSWORD}';
    GRANT SELECT ON signups TO reader;
    -- the reader of the docs' recipe (docs/sql-tool.md): nothing of the database's own runs, nor what is made later
    REVOKE EXECUTE ON ALL FUNCTIONS IN SCHEMA public FROM PUBLIC;
    ALTER DEFAULT PRIVILEGES FOR ROLE postgres REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC;
    ALTER ROLE reader SET temp_file_limit = '1GB';`);
  await client.end();
}, 60_000);
afterAll(async () => {
  await fake?.close();
  await db?.stop();
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

const PROGRAM = `\`\`\`python
from tools import sql
df = sql("shop", "SELECT count(*) AS n FROM signups WHERE created_on = current_date - $1::int", [1])
print("yesterday's signups:", int(df["n"][0]))
\`\`\``;

describe('code-agent run with the SQL tool', () => {
  it("answers yesterday's signup count from PostgreSQL; the model was told the table; 🔧 line; no password anywhere", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-sql-'));
    const code = (req: { messages: Array<{ content: string }> }) =>
      /signups\(id integer, email text, created_on date\)/.test(req.messages[0]!.content) ? PROGRAM : '```python\nprint("no source was described")\n```';
    fake = await startFakeOpenAi({ replies: [routedReplies({ code: [code] })] });
    const url = db.url.replace('postgres@', 'reader:${SHOP_DB_PASSWORD}@');
    writeFileSync(
      join(dir, 'config.yaml'),
      ['llm:', '  provider: openai', `  base_url: ${fake.url}`, '  model: fake-model', '  max_retries: 0', 'sandbox:', '  timeout_s: 20', '  cpu_time_s: 20', 'tools:', '  sql:', '    sources:', `      shop: { url: "${url}" }`].join('\n'),
    );
    const env = { SHOP_DB_PASSWORD: PASSWORD };
    const r = await runCli(['run', "What was yesterday's signup count?"], dir, '', env);
    expect(r.stderr).not.toContain('Traceback');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("yesterday's signups: 3");
    expect(r.stdout).toMatch(/\[Agent\] 🔧 sql shop: 1 query, 1 row, \d+ ms/);
    const system = fake.requests[0]!.messages[0]!.content;
    expect(system).toContain('`from tools import sql`');
    expect(r.stdout + r.stderr + system).not.toContain(PASSWORD);
    for (const f of filesUnder(join(dir, 'data'))) expect(readFileSync(f).includes(PASSWORD), f).toBe(false);

    const doctor = await runCli(['doctor'], dir, '', env);
    expect(doctor.stdout).toMatch(new RegExp(`sql shop\\s+ok\\s+postgresql://127\\.0\\.0\\.1:${db.port}/postgres; used by the terminal only`));
    expect(doctor.stdout).not.toContain(PASSWORD);
  }, 120_000);
});
