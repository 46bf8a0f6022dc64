/**
 * The chat commands' catalogue (src/chat/command-catalog.ts): its commands are the pipeline's
 * request commands and `usage`, and their options become the one line the pipeline reads, as people
 * type it on Slack and Matrix.
 */
import { describe, expect, it } from 'vitest';
import { CHAT_COMMANDS, chatCommand, commandLine, commandNames, REQUEST_COMMANDS, typedCommand, type CommandOption } from '../../src/chat/command-catalog.js';
import { REQUEST_KINDS } from '../../src/chat/incoming-port.js';

/** The line of a command given these option values by name. */
const line = (name: string, values: Record<string, string | number | boolean>) => commandLine(chatCommand(name), (o: CommandOption) => values[o.name]);

describe('the chat command catalogue', () => {
  it('has each command once: the request commands (each a request kind) and usage', () => {
    const names = CHAT_COMMANDS.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(['run', 'generate', 'history', 'show', 'remember', 'memory', 'programs', 'program', 'schedule', 'schedules', 'unschedule', 'usage']);
    expect(REQUEST_COMMANDS).toEqual(names.filter((n) => n !== 'usage'));
    for (const kind of REQUEST_COMMANDS) expect(REQUEST_KINDS).toContain(kind);
    expect(() => chatCommand('help')).toThrow(/no chat command named "help" \(the catalogue has run, generate/);
  });

  it('spells the request commands with a platform prefix', () => {
    expect(commandNames('!')).toEqual({
      run: '!run', generate: '!generate', history: '!history', show: '!show', remember: '!remember', memory: '!memory',
      programs: '!programs', program: '!program', schedule: '!schedule', schedules: '!schedules', unschedule: '!unschedule',
    });
  });

  it("names every option of a command's line once, and gives each option its kind's limits only", () => {
    for (const c of CHAT_COMMANDS) {
      if (c.line) expect([...c.line].sort()).toEqual(c.options.filter((o) => o.kind !== 'file').map((o) => o.name).sort());
      for (const o of c.options) {
        if (o.kind !== 'text') expect(o.maxLength ?? o.minLength, `${c.name}.${o.name}`).toBeUndefined();
        if (o.kind !== 'integer') expect(o.min ?? o.max, `${c.name}.${o.name}`).toBeUndefined();
        expect(o.choices === undefined, `${c.name}.${o.name}`).toBe(o.kind !== 'choice');
      }
    }
  });

  it('writes options as the line the pipeline reads: in line order, after their keywords, trimmed', () => {
    expect(line('run', { requirement: '  plot a sine wave ', file: 'ignored' })).toBe('plot a sine wave');
    expect(line('history', { limit: 5 })).toBe('5');
    expect(line('history', {})).toBe('');
    expect(line('memory', { forget: ' m12 ' })).toBe('forget m12');
    expect(line('schedules', { resume: 's3' })).toBe('resume s3');
    expect(line('program', { name: 'revenue', args: 'region=EU' })).toBe('revenue region=EU');
    expect(line('usage', { by: 'user', since: '4w' })).toBe('user 4w');
    // the line's order is not the options' (Discord lists required options first)
    expect(line('schedule', { program: 'revenue', when: 'every Monday at 9', only_when: 'refunds > 5 %', params: 'region=EU' })).toBe(
      'revenue region=EU every Monday at 9 only when refunds > 5 %',
    );
    // a value that already says its keyword (or a spelling the pipeline reads the same) gets it once
    expect(line('schedule', { program: 'p', when: 'daily', only_when: 'Only if it changed' })).toBe('p daily only when it changed');
  });

  it("writes a set boolean as its keyword alone and ends the line there (/show's delete_run deletes the whole run)", () => {
    expect(line('show', { run: 'r1', remove: 'a.csv' })).toBe('r1 remove a.csv');
    expect(line('show', { run: 'r1', delete_run: true })).toBe('r1 remove');
    expect(line('show', { run: 'r1', delete_run: true, remove: 'a.csv' })).toBe('r1 remove');
    expect(line('show', { run: 'r1', delete_run: false, remove: 'a.csv' })).toBe('r1 remove a.csv');
  });

  it('reads a typed command back with the platform\'s spellings: whole names in any case, the line after them', () => {
    const names = commandNames('!');
    expect(typedCommand('  !run plot a sine\nwave  ', names)).toEqual({ name: 'run', line: 'plot a sine\nwave' });
    expect(typedCommand('!HISTORY', names)).toEqual({ name: 'history', line: '' });
    expect(typedCommand('!programs', names)).toEqual({ name: 'programs', line: '' });
    expect(typedCommand('!program\tsave x', names)).toEqual({ name: 'program', line: 'save x' });
    expect(typedCommand('!schedules resume s3', names)).toEqual({ name: 'schedules', line: 'resume s3' });
    for (const not of ['!running', '!usage', 'run x', '! run x', '/run x', '']) expect(typedCommand(not, names)).toBeUndefined();
  });
});
