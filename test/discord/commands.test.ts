/**
 * Discord's slash commands are the catalogue's (src/chat/command-catalog.ts) mapped to Discord's
 * JSON: what is registered keeps its names, option types, required flags and limits, so a drift
 * fails here; a catalogue entry Discord would refuse fails at the mapping with what and where.
 */
import { describe, expect, it } from 'vitest';
import { ApplicationCommandOptionType, ApplicationCommandType, InteractionContextType } from 'discord.js';
import { COMMANDS, discordCommands } from '../../adapters/discord/commands.js';
import { CHAT_COMMANDS, chatCommand, type ChatCommand } from '../../src/chat/command-catalog.js';

/** A registered command by name. */
const registered = (name: string) => COMMANDS.find((c) => c.name === name) as { name: string; type: number; options?: Record<string, unknown>[]; contexts: number[] };

describe("Discord's commands", () => {
  it('registers every chat command as a chat input command in guilds and the bot DM', () => {
    expect(COMMANDS.map((c) => c.name)).toEqual(CHAT_COMMANDS.map((c) => c.name));
    for (const c of COMMANDS) {
      expect(c.type).toBe(ApplicationCommandType.ChatInput);
      expect((c as { contexts: number[] }).contexts).toEqual([InteractionContextType.Guild, InteractionContextType.BotDM]);
    }
    expect(registered('programs').options).toBeUndefined();
  });

  it('keeps /run, /history, /show, /schedule and /usage as they were registered', () => {
    expect(registered('run').options).toEqual([
      { name: 'requirement', description: 'What the program should do, in plain language', type: ApplicationCommandOptionType.String, required: true, min_length: 1, max_length: 6000 },
      { name: 'file', description: 'A file the program should read (placed in its working directory)', type: ApplicationCommandOptionType.Attachment, required: false },
    ]);
    expect(registered('history').options).toEqual([
      { name: 'limit', description: 'How many runs (default 10)', type: ApplicationCommandOptionType.Integer, required: false, min_value: 1, max_value: 25 },
    ]);
    expect(registered('show').options!.map((o) => [o.name, o.type, o.required, o.max_length])).toEqual([
      ['run', ApplicationCommandOptionType.String, false, 64],
      ['remove', ApplicationCommandOptionType.String, false, 255],
      ['delete_run', ApplicationCommandOptionType.Boolean, false, undefined],
    ]);
    expect(registered('schedule').options!.map((o) => [o.name, o.required, o.max_length])).toEqual([
      ['program', true, 64],
      ['when', true, 200],
      ['only_when', false, 200],
      ['params', false, 500],
    ]);
    expect(registered('program').options![2]).toEqual({
      name: 'file', description: 'An input file for the run (default: the files it was saved with)', type: ApplicationCommandOptionType.Attachment, required: false,
    });
    expect(registered('usage').options![0]).toEqual({
      name: 'by', description: 'One line per channel (default), user or day', type: ApplicationCommandOptionType.String, required: false,
      choices: [{ name: 'channel', value: 'channel' }, { name: 'user', value: 'user' }, { name: 'day', value: 'day' }],
    });
    expect(registered('remember')).toMatchObject({ description: 'Teach this channel a definition its next runs read requests with' });
  });

  it("refuses a catalogue entry beyond Discord's limits, naming the command", () => {
    const run = chatCommand('run');
    const withDescription = (description: string): ChatCommand[] => [{ ...run, description }];
    expect(() => discordCommands(withDescription('x'.repeat(101)))).toThrow(/chat command \/run: run: a name of 1-32 lower-case characters and a description of 1-100/);
    expect(() => discordCommands([{ ...run, name: 'Run' as 'run' }])).toThrow(/\/Run/);
    expect(() => discordCommands([{ ...run, options: [{ ...run.options[0]!, maxLength: 6001 }] }])).toThrow(/longer than 6000 characters/);
    expect(() => discordCommands([{ ...run, options: [...run.options].reverse() }])).toThrow(/a required option after an optional one/);
    expect(discordCommands(withDescription('x'.repeat(100)))[0]!.description).toHaveLength(100);
  });
});
