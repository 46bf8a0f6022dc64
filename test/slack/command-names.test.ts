/**
 * Slash command names from `slack.commands` (for workspaces where another app has `/run`): the
 * app answers to the configured names only, its messages name them, and `code-agent slack manifest`
 * writes them into the manifest. Real Bolt against the fake Slack server.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { allText, py, startWorld, type World } from './harness.js';
import { slackManifest } from '../../adapters/slack/manifest.js';
import { parseConfig } from '../../src/config/load.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const names = {
  run: '/code-run',
  generate: '/code-generate',
  history: '/code-history',
  show: '/code-show',
  usage: '/code-usage',
  remember: '/code-remember',
  memory: '/code-memory',
  programs: '/code-programs',
  program: '/code-program',
  schedule: '/code-schedule',
  schedules: '/code-schedules',
  unschedule: '/code-unschedule',
};

describe('configurable slash command names', () => {
  it('runs on the configured names and names them in its answers', async () => {
    world = await startWorld({ replies: [py('print("renamed")')], slack: { commands: names } });
    const empty = await world.command({ command: '/code-run', text: '' });
    expect(JSON.stringify(empty.body)).toContain('Usage: `/code-run &lt;what the program should do&gt;`');
    const none = await world.command({ command: '/code-history', text: '' });
    expect(JSON.stringify(none.body)).toContain('Start one with `/code-run &lt;what the program should do&gt;`');
    await world.command({ command: '/code-run', text: 'say renamed' });
    const root = await world.rootTs();
    await world.finished(root);
    expect(allText(world.threadPosts(root))).toContain('renamed');
    const show = await world.command({ command: '/code-show', text: '' });
    expect(JSON.stringify(show.body)).toContain('print(\\"renamed\\")');
  });

  it('no longer answers the default names once renamed', async () => {
    world = await startWorld({ replies: [py('print(1)')], slack: { commands: names } });
    const old = await world.command({ command: '/run', text: 'print one' });
    expect(old.status).not.toBe(200); // Bolt has no listener for /run: the request is not acknowledged
    expect(world.llm.requests).toHaveLength(0);
  });

  it('rejects names Slack would refuse, and duplicates, by key path', () => {
    expect(() => parseConfig({ slack: { commands: { run: 'run' } } }, {})).toThrow(/slack\.commands\.run: expected a slash command name/);
    expect(() => parseConfig({ slack: { commands: { run: '/Run' } } }, {})).toThrow(/slack\.commands\.run/);
    expect(() => parseConfig({ slack: { commands: { show: '/run' } } }, {})).toThrow(/slack\.commands: the commands need different names/);
    expect(parseConfig({ slack: {} }, {}).slack!.commands).toEqual({
      run: '/run',
      generate: '/generate',
      history: '/history',
      show: '/show',
      usage: '/usage',
      remember: '/remember',
      memory: '/memory',
      programs: '/programs',
      program: '/program',
      schedule: '/schedule',
      schedules: '/schedules',
      unschedule: '/unschedule',
    });
  });

  it('writes the names and the public URL into the manifest, keeping everything else', () => {
    const template = readFileSync('adapters/slack/manifest.yml', 'utf8');
    const manifest = parse(slackManifest(template, names, 'https://bot.example.org')) as {
      features: { slash_commands: { command: string; url: string }[] };
      settings: { event_subscriptions: { request_url: string } };
      oauth_config: unknown;
    };
    expect(manifest.features.slash_commands.map((c) => c.command)).toEqual([
      '/code-run',
      '/code-generate',
      '/code-history',
      '/code-show',
      '/code-remember',
      '/code-memory',
      '/code-programs',
      '/code-program',
      '/code-schedule',
      '/code-schedules',
      '/code-unschedule',
      '/code-usage',
    ]);
    expect(new Set(manifest.features.slash_commands.map((c) => c.url))).toEqual(new Set(['https://bot.example.org/slack/events']));
    expect(manifest.settings.event_subscriptions.request_url).toBe('https://bot.example.org/slack/events');
    expect(manifest.oauth_config).toEqual((parse(template) as { oauth_config: unknown }).oauth_config);
    // nothing is left to replace: the header names the URL written in
    const text = slackManifest(template, names, 'https://bot.example.org');
    expect(text).not.toContain('YOUR-HOST');
    expect(text).toContain('# HTTP mode: the request URLs are https://bot.example.org/slack/events');
    expect(() => slackManifest(template, names, 'http://bot.example.org')).toThrow(/expected the app's public https URL/);
  });
});
