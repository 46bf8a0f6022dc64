/** `retention.*`: off by default (the shipped config too), validated by path. */
import { describe, expect, it } from 'vitest';
import { loadConfig, parseConfig } from '../../src/config/load.js';

describe('retention config', () => {
  it('keeps everything unless set, in the defaults and the shipped config.yaml', async () => {
    expect(parseConfig({}, {}).retention).toEqual({ sweep_every_min: 60 });
    const shipped = await loadConfig('config.yaml', { OPENAI_API_KEY: 'sk-test' });
    expect(shipped.retention.runs_days).toBeUndefined();
    expect(shipped.retention.files_days).toBeUndefined();
  });

  it('takes days and reports a bad value by its path', () => {
    expect(parseConfig({ retention: { runs_days: 90, files_days: 30 } }, {}).retention).toEqual({ runs_days: 90, files_days: 30, sweep_every_min: 60 });
    expect(() => parseConfig({ retention: { runs_days: 0 } }, {})).toThrow(/retention\.runs_days/);
    expect(() => parseConfig({ retention: { runs_days: 'a month' } }, {})).toThrow(/retention\.runs_days: expected a number/);
    expect(() => parseConfig({ retention: { runs_days: 30, files_days: 60 } }, {})).toThrow(/retention\.files_days: files_days must be at most runs_days/);
    expect(() => parseConfig({ retention: { run_days: 30 } }, {})).toThrow(/retention/);
  });
});
