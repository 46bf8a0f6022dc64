import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, expandEnv, loadConfig, parseConfig } from '../../src/config/load.js';

function writeTemp(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
  const file = join(dir, 'config.yaml');
  writeFileSync(file, text);
  return file;
}

describe('config', () => {
  it('loads the shipped config.yaml with its defaults', async () => {
    const config = await loadConfig('config.yaml', { OPENAI_API_KEY: 'sk-test', PORT: '4100' });
    expect(config.llm.api_key).toBe('sk-test');
    expect(config.llm.base_url).toBeUndefined();
    expect(config.agent.max_retries).toBe(3);
    expect(config.sandbox.timeout_s).toBe(10);
    expect(config.sandbox.memory_mb).toBe(512);
    expect(config.store.url).toBe('sqlite://data/history.sqlite');
    expect(config.slack?.port).toBe(4100);
  });

  it('expands ${VAR} and ${VAR:-default}', () => {
    expect(expandEnv('a ${X} b ${Y:-dflt} c ${Z:-}', { X: '1' })).toBe('a 1 b dflt c ');
    expect(expandEnv({ list: ['${X}'] }, { X: 'v' })).toEqual({ list: ['v'] });
    expect(expandEnv('${X:-d}', { X: '' })).toBe('d');
  });

  it('reports a bad key by its path', () => {
    expect(() => parseConfig({ sandbox: { timeout_s: 'soon' } }, {})).toThrow(/sandbox\.timeout_s: expected a number/);
    expect(() => parseConfig({ agent: { max_retries: -1 } }, {})).toThrow(/agent\.max_retries/);
    expect(() => parseConfig({ llm: { provider: 'gpt' } }, {})).toThrow(/llm\.provider/);
    expect(() => parseConfig({ agent: { verify: 'sometimes' } }, {})).toThrow('agent.verify: expected one of off, checks, review, both');
  });

  it('validates the workspace bounds', () => {
    expect(parseConfig({}, {}).workspace).toEqual({ max_files: 100, max_bytes: 64 * 1024 * 1024, max_conversation_bytes: 512 * 1024 * 1024 });
    expect(parseConfig({ workspace: { max_files: '20', max_bytes: 1000, max_conversation_bytes: 5000 } }, {}).workspace).toEqual({
      max_files: 20,
      max_bytes: 1000,
      max_conversation_bytes: 5000,
    });
    expect(() => parseConfig({ workspace: { max_files: 0 } }, {})).toThrow(/workspace\.max_files/);
    expect(() => parseConfig({ workspace: { max_bytes: 1.5 } }, {})).toThrow(/workspace\.max_bytes/);
    expect(() => parseConfig({ workspace: { max_bytes: 1000, max_conversation_bytes: 10 } }, {})).toThrow(
      /workspace\.max_conversation_bytes: max_conversation_bytes must be at least max_bytes/,
    );
    expect(() => parseConfig({ workspace: { files: 3 } }, {})).toThrow(/workspace: unknown key files/);
  });

  it('reports unknown keys', () => {
    expect(() => parseConfig({ sandbox: { timeout: 3 } }, {})).toThrow(/sandbox: unknown key timeout/);
  });

  it('says which known key an unknown one was probably meant to be, else which keys may be there', () => {
    const problems = (raw: unknown) => {
      try {
        parseConfig(raw, {});
      } catch (err) {
        return (err as ConfigError).problems.map((p) => `${p.path}: ${p.problem}`);
      }
      throw new Error('no error');
    };
    expect(problems({ agent: { verfy: 'off' } })).toEqual(['agent: unknown key verfy (did you mean verify?)']);
    expect(problems({ slak: {} })).toEqual(['(root): unknown key slak (did you mean slack?)']);
    expect(problems({ llm: { modle: 'x' } })).toEqual(['llm: unknown key modle (did you mean model?)']);
    expect(problems({ tools: { http: { allowed: [] } } })).toEqual(['tools.http: unknown key allowed (did you mean allow?)']);
    // inside a record (a source's name is the user's) and with nothing close: the keys that may be there
    expect(problems({ tools: { sql: { sources: { shop: { url: 'sqlite://a.db', password: 'x' } } } } })).toEqual([
      'tools.sql.sources.shop: unknown key password (keys here: url, conversations, timeout_s, max_rows, max_result_mb, functions, security_definer, privileged_role)',
    ]);
  });

  it('names the environment variable that made a bad value, never repeating the value', () => {
    const fromShippedDefault = () => parseConfig({ agent: {} }, { CODE_AGENT_VERIFY: 'maybe-secret' });
    expect(fromShippedDefault).toThrow(/agent\.verify: .* \(set by the environment variable CODE_AGENT_VERIFY\)/);
    expect(fromShippedDefault).not.toThrow(/maybe-secret/);
    expect(() => parseConfig({ sandbox: { timeout_s: '${T}' } }, { T: 'soon' })).toThrow(/sandbox\.timeout_s: expected a number \(set by the environment variable T\)/);
    // a value written in the file itself is not blamed on the environment
    expect(() => parseConfig({ sandbox: { timeout_s: 'soon' } }, { T: 'x' })).not.toThrow(/environment/);
  });

  it('takes numbers from the environment', () => {
    const config = parseConfig({ sandbox: { timeout_s: '${T}' } }, { T: '2.5' });
    expect(config.sandbox.timeout_s).toBe(2.5);
  });

  it('fails clearly on a missing explicit file and on malformed YAML', async () => {
    await expect(loadConfig('/nonexistent/code-agent.yaml', {})).rejects.toThrow(/config file not found: \/nonexistent/);
    const bad = writeTemp('llm:\n  model: [unclosed\n');
    await expect(loadConfig(bad, {})).rejects.toBeInstanceOf(ConfigError);
    await expect(loadConfig(bad, {})).rejects.toThrow(/not valid YAML at line 2, column 10: the \[ opened here is never closed by a \]$/);
  });

  it('points malformed YAML at the line to fix, in plain words, with no dangling colon', async () => {
    const cases: [string, RegExp][] = [
      ['llm:\n  provider: auto\n  model: [unclosed\nagent:\n  max_retries: 3\n', /at line 3, column 10: the \[ opened here is never closed by a \]$/],
      ['llm:\n  provider: "auto\nagent:\n  max_retries: 1\n', /at line 2, column 13: the " opened here is never closed by a "$/],
      ['# a comment with a " quote\nllm:\n  model: \'x\n', /at line 3, column 10: the ' opened here is never closed/],
      ['llm:\n\tprovider: auto\n', /at line 2, column 1: this line is indented with a tab: indent with spaces only$/],
      ['llm:\n  a: 1\n b: 2\n', /at line 3, column 1: this key is not indented like the keys before it/],
      // the parser points at «x» on line 2; the line to fix is the next one
      ['llm:\n  model: x\n\n    threads: 2\n', /at line 4, column 5: this line is indented further than «model: x» above it, which already has a value: indent it like that key$/],
      // with comments between (the shipped config.yaml has them above most keys): the key's line, not the comment's
      ['agent:\n  max_retries: 3\n  # a comment\n    verify: checks\n', /at line 4, column 5: this line is indented further than «max_retries: 3» above it, which already has a value: indent it like that key$/],
      ['agent:\n  # one\n  max_retries: 3\n  # two\n\n  # three\n    verify: checks\nsandbox:\n  timeout_s: 3\n', /at line 7, column 5: this line is indented further than «max_retries: 3»/],
      ['agent:\n  max_retries: 3\n # a comment\n verify: checks\n', /at line 4, column 2: this key is not indented like the keys before it/],
      ['agent:\n  verify off\n  max_retries: 2\n', /at line 2, column 3: «verify off» is not «key: value» \(a colon followed by a space is missing\)$/],
      ['agent:\n  verify: off\n  verify: checks\n', /at line 3, column 3: this key appears twice in the same section: keep one$/],
      ['slack:\n  bot_token: x\n  - y\n', /at line 3, column 1: a list item \(«- …»\) stands among keys/],
    ];
    for (const [text, expected] of cases) {
      const err = await loadConfig(writeTemp(text), {}).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as Error).message).toMatch(expected);
      expect((err as Error).message).not.toMatch(/:\s*$/);
    }
  });

  it('bounds agent.max_retries', () => {
    expect(() => parseConfig({ agent: { max_retries: 21 } }, {})).toThrow(/agent\.max_retries: expected a number ≤ 20/);
    expect(parseConfig({ agent: { max_retries: 20 } }, {}).agent.max_retries).toBe(20);
  });

  it('uses CODE_AGENT_CONFIG when no path is given', async () => {
    const file = writeTemp('agent:\n  max_retries: 1\n');
    const config = await loadConfig(undefined, { CODE_AGENT_CONFIG: file });
    expect(config.agent.max_retries).toBe(1);
  });
});

describe('config defaults from the environment', () => {
  it('takes OPENAI_API_KEY and OPENAI_BASE_URL when the keys are absent', () => {
    const config = parseConfig({}, { OPENAI_API_KEY: 'sk-env', OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' });
    expect(config.llm.api_key).toBe('sk-env');
    expect(config.llm.base_url).toBe('http://127.0.0.1:11434/v1');
    expect(parseConfig({ llm: { base_url: 'http://other/v1' } }, { OPENAI_BASE_URL: 'http://env/v1' }).llm.base_url).toBe('http://other/v1');
  });

  it('reads every variable the shipped config.yaml reads, also without a config file', async () => {
    const env = {
      CODE_AGENT_MODEL_PATH: '/models/m.gguf',
      CODE_AGENT_LLM_THREADS: '1',
      CODE_AGENT_LLM_PROVIDER: 'local',
      CODE_AGENT_STORE_URL: 'redis://127.0.0.1:6379',
      LOG_LEVEL: 'warn',
      PORT: '4100',
      SLACK_API_URL: 'http://127.0.0.1:9/api/',
      DISCORD_API_URL: 'http://127.0.0.1:9/api',
      DISCORD_GUILD_ID: '42',
    };
    const bare = parseConfig({}, env);
    const shipped = await loadConfig('config.yaml', env);
    for (const config of [bare, shipped]) {
      expect(config.llm).toMatchObject({ provider: 'local', model_path: '/models/m.gguf', threads: 1 });
      expect(config.store.url).toBe('redis://127.0.0.1:6379');
      expect(config.log.level).toBe('warn');
      expect(config.slack).toMatchObject({ port: 4100, api_url: 'http://127.0.0.1:9/api/' });
      expect(config.discord).toMatchObject({ api_url: 'http://127.0.0.1:9/api', guild_id: '42' });
    }
    // unset, the defaults are the shipped file's
    const none = parseConfig({}, {});
    expect(none.llm).toMatchObject({ provider: 'auto', threads: 0 });
    expect(none.llm.model_path).toBeUndefined();
    expect(none.store.url).toBe('sqlite://data/history.sqlite');
    expect(none.slack.port).toBe(3000);
  });

  it('rejects a base_url that is not a URL, and says bounds in words', async () => {
    expect(() => parseConfig({}, { OPENAI_BASE_URL: 'not-a-url' })).toThrow(/llm\.base_url: expected an http:\/\/ or https:\/\/ URL/);
    expect(() => parseConfig({ agent: { max_retries: -5 } }, {})).toThrow(/agent\.max_retries: expected a number ≥ 0/);
    await expect(loadConfig(tmpdir(), {})).rejects.toThrow(/it is a directory/);
  });
});
