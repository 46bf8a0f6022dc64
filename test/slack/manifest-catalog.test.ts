/**
 * The shipped Slack app manifest (adapters/slack/manifest.yml, YAML with its comments) repeats the
 * chat commands: its slash commands, their descriptions and usage hints are the catalogue's
 * (src/chat/command-catalog.ts), in its order, so that a command changed in one place and not the
 * other fails here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CHAT_COMMANDS } from '../../src/chat/command-catalog.js';
import { slackCommandsSchema } from '../../src/config/schema.js';

interface SlashCommand {
  command: string;
  description: string;
  usage_hint?: string;
  url: string;
  should_escape?: boolean;
}

const manifest = parse(readFileSync('adapters/slack/manifest.yml', 'utf8')) as { features: { slash_commands: SlashCommand[] } };
const commands = manifest.features.slash_commands;

describe("the Slack manifest's slash commands", () => {
  it("are the catalogue's commands under their default names, with its descriptions and hints", () => {
    expect(commands.map((c) => ({ command: c.command, description: c.description, hint: c.usage_hint }))).toEqual(
      CHAT_COMMANDS.map((c) => ({ command: `/${c.name}`, description: c.description, hint: c.hint })),
    );
  });

  it('all leave mentions and channels unescaped, as the commands read them (should_escape: false)', () => {
    expect(commands.filter((c) => c.should_escape !== false).map((c) => c.command)).toEqual([]);
  });

  it('are the names slack.commands defaults to', () => {
    const defaults = slackCommandsSchema.parse({}) as Record<string, string>;
    expect(new Set(commands.map((c) => c.command))).toEqual(new Set(Object.values(defaults)));
    for (const c of CHAT_COMMANDS) expect(defaults[c.name], c.name).toBe(`/${c.name}`);
  });
});
