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
  });

  it('reports unknown keys', () => {
    expect(() => parseConfig({ sandbox: { timeout: 3 } }, {})).toThrow(/sandbox: unknown key timeout/);
  });

  it('takes numbers from the environment', () => {
    const config = parseConfig({ sandbox: { timeout_s: '${T}' } }, { T: '2.5' });
    expect(config.sandbox.timeout_s).toBe(2.5);
  });

  it('fails clearly on a missing explicit file and on malformed YAML', async () => {
    await expect(loadConfig('/nonexistent/code-agent.yaml', {})).rejects.toThrow(/config file not found: \/nonexistent/);
    const bad = writeTemp('llm:\n  model: [unclosed\n');
    await expect(loadConfig(bad, {})).rejects.toBeInstanceOf(ConfigError);
    await expect(loadConfig(bad, {})).rejects.toThrow(/not valid YAML \(line \d+, column \d+\)/);
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

  it('rejects a base_url that is not a URL, and says bounds in words', async () => {
    expect(() => parseConfig({}, { OPENAI_BASE_URL: 'not-a-url' })).toThrow(/llm\.base_url: expected an http:\/\/ or https:\/\/ URL/);
    expect(() => parseConfig({ agent: { max_retries: -5 } }, {})).toThrow(/agent\.max_retries: expected a number ≥ 0/);
    await expect(loadConfig(tmpdir(), {})).rejects.toThrow(/it is a directory/);
  });
});
