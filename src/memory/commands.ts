/**
 * The memory commands, the same on every platform and in the terminal: `/remember <text>` (Matrix:
 * `!remember`), `/memory` (list), `/memory forget <id>`. Anyone who may use the channel may use
 * them; who added and who removed an entry is kept. A platform passes the text after the command
 * word and shows the reply: a title (plain words of ours) and lines (the team's text: untrusted,
 * shown inside a code block, like every notice).
 */
import type { MemoryEntry } from '../history/memory.js';
import { MemoryEntryError, MemoryFullError } from '../history/memory.js';
import type { ChannelMemory } from './channel-memory.js';
import { shortLine } from '../text/cut.js';

/** A parsed memory command. */
export type MemoryCommand = { kind: 'remember'; text: string } | { kind: 'list' } | { kind: 'forget'; id: string };

/** What to show: a title and lines (untrusted text, for a code block). */
export interface MemoryReply {
  title: string;
  lines: string[];
  /** The command did nothing (a refusal, an unknown id, a usage mistake). */
  refused?: boolean;
}

/** How a platform spells the two commands (Slack `/remember`, Matrix `!remember`). */
export interface MemoryCommandNames {
  remember: string;
  memory: string;
}

const SLASH: MemoryCommandNames = { remember: '/remember', memory: '/memory' };

/** Usage of the commands, for replies to a mistake. */
export function memoryUsage(names: MemoryCommandNames = SLASH): string {
  return `${names.remember} <one sentence>, ${names.memory} to list, ${names.memory} forget <id>`;
}

/**
 * Reads a command's words.
 * @param command `remember` or `memory` (without the slash or `!`)
 * @param args the rest of the message
 * @returns the command, or a reply saying how to use it
 */
export function parseMemoryCommand(command: 'remember' | 'memory', args: string, names: MemoryCommandNames = SLASH): MemoryCommand | MemoryReply {
  const rest = args.trim();
  if (command === 'remember') {
    return rest === '' ? { title: `Say what to remember, e.g. ${names.remember} revenue = units × unit_price (${memoryUsage(names)}).`, lines: [], refused: true } : { kind: 'remember', text: rest };
  }
  if (rest === '' || rest === 'list') return { kind: 'list' };
  const forget = /^(?:forget|remove|delete)\s+(\S+)$/i.exec(rest);
  if (forget) return { kind: 'forget', id: forget[1]! };
  return { title: `I did not understand that: use ${memoryUsage(names)}.`, lines: [`${names.memory} ${rest.slice(0, 80)}`], refused: true };
}

/** One line of a listing: `m3 · revenue = … · added by U1 on 2026-12-02`. */
export function entryLine(e: MemoryEntry): string {
  const what = e.kind === 'definition' ? e.text : `example from run ${e.example?.runId ?? '?'}: ${e.text}`;
  const removed = e.removedAt ? ` · forgotten by ${e.removedBy} on ${e.removedAt.slice(0, 10)}` : '';
  const helper = e.helper ? ` · as code: from team import ${e.helper.name}${e.helper.approvedBy ? `, approved by ${e.helper.approvedBy}` : ''}` : '';
  return `${e.id} · ${shortLine(what, 200)}${helper} · added by ${e.addedBy} on ${e.addedAt.slice(0, 10)}${removed}`;
}

/**
 * Carries out a memory command in a conversation.
 * @param who who typed it (platform user id or name)
 * @param where how the reply names the conversation ("this channel", "the terminal")
 * @param names how the platform spells the commands, for the hints in the reply
 * @returns the reply; a refusal (memory full, an entry too long, an unknown id) is a reply with `refused`
 * @throws `HistoryError` when the store fails
 */
export async function runMemoryCommand(memory: ChannelMemory, conversationId: string, who: string, command: MemoryCommand, where = 'this channel', names: MemoryCommandNames = SLASH): Promise<MemoryReply> {
  switch (command.kind) {
    case 'remember':
      try {
        const entry = await memory.remember(conversationId, command.text, who);
        return { title: `📌 Remembered for ${where} (${entry.id}); its next runs read requests with it. ${names.memory} forget ${entry.id} removes it.`, lines: [entry.text] };
      } catch (err) {
        if (err instanceof MemoryFullError || err instanceof MemoryEntryError) return { title: `Not remembered: ${err.message}.`, lines: [], refused: true };
        throw err;
      }
    case 'forget': {
      const entry = await memory.forget(conversationId, command.id, who);
      if (!entry) {
        const gone = await memory.forgotten(conversationId, command.id);
        if (gone) return { title: `${gone.id} was forgotten already, by ${shortLine(gone.removedBy ?? 'someone', 80)}.`, lines: [entryLine(gone)], refused: true };
        return { title: `There is no entry ${shortLine(command.id, 40)} in the memory of ${where}: ${names.memory} lists them.`, lines: [], refused: true };
      }
      return { title: `🗑️ Forgotten (${entry.id}): later runs no longer get it; ${names.memory} no longer lists it (the store keeps who added and who removed it).`, lines: [entryLine(entry)] };
    }
    case 'list': {
      const entries = await memory.list(conversationId);
      if (entries.length === 0) {
        return { title: `The memory of ${where} is empty. ${names.remember} <one sentence> adds a definition; an approved run becomes an example.`, lines: [] };
      }
      const bytes = entries.reduce((n, e) => n + e.bytes, 0);
      return {
        title: `🧠 Memory of ${where}: ${entries.length} of ${memory.limits.maxEntries} entries, ${Math.ceil(bytes / 1024)} of ${Math.floor(memory.limits.maxBytes / 1024)} KB. ${names.memory} forget <id> removes one.`,
        lines: entries.map(entryLine),
      };
    }
  }
}
