/** The `matrix:` config section: its keys from the environment, and bad ids named by their path. */
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/config/load.js';
import { matrixSettings } from '../../adapters/matrix/settings.js';
import { buildProgram } from '../../adapters/cli/main.js';

describe('matrix config', () => {
  it('reads the homeserver, token and user id from the environment by default', () => {
    const config = parseConfig({}, { MATRIX_HOMESERVER_URL: 'https://matrix.example.org', MATRIX_ACCESS_TOKEN: 'syt_x', MATRIX_USER_ID: '@bot:example.org' });
    expect(config.matrix).toMatchObject({ homeserver_url: 'https://matrix.example.org', access_token: 'syt_x', user_id: '@bot:example.org', allowed_rooms: [], allowed_users: [] });
    expect(parseConfig({}, {}).matrix?.access_token).toBeUndefined();
  });

  it('names each bad key by its path and says what was expected', () => {
    const bad = { homeserver_url: 'matrix.example.org', user_id: 'bot', allowed_rooms: ['#code:example.org'], allowed_users: ['@alice'], unknown: 1 };
    let message = '';
    try {
      parseConfig({ matrix: bad }, {});
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      message = (err as Error).message;
    }
    expect(message).toMatch(/matrix\.homeserver_url: expected an http:\/\/ or https:\/\/ URL/);
    expect(message).toMatch(/matrix\.user_id: expected a Matrix user id like @name:example\.org/);
    expect(message).toMatch(/matrix\.allowed_rooms\.0: expected a Matrix room id like !name:example\.org/);
    expect(message).toMatch(/matrix\.allowed_users\.0: expected a Matrix user id/);
    expect(message).toMatch(/matrix: .*unknown/);
  });

  it('code-agent matrix is a command; without the homeserver or the token it says which key and how to set it', () => {
    expect(buildProgram().commands.map((c) => c.name())).toContain('matrix');
    expect(() => matrixSettings(parseConfig({}, {}))).toThrow(/matrix\.homeserver_url is not set: set MATRIX_HOMESERVER_URL/);
    expect(() => matrixSettings(parseConfig({ matrix: { homeserver_url: 'https://m.example.org' } }, {}))).toThrow(/matrix\.access_token is not set: set MATRIX_ACCESS_TOKEN/);
    const settings = matrixSettings(parseConfig({ matrix: { homeserver_url: 'https://m.example.org/', access_token: 't', max_input_file_mb: 2 } }, {}));
    expect(settings).toMatchObject({ homeserverUrl: 'https://m.example.org', inputLimits: { maxFiles: 5, maxBytes: 2 * 1024 * 1024 } });
  });
});
