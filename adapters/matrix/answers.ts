/**
 * Matrix's incoming port (src/chat/incoming-port.ts): commands spelled `!run`, `!generate`,
 * `!history`, `!show`; access by room id and user id (`matrix.allowed_rooms`, `matrix.allowed_users`);
 * the answers to a requester (a refusal, `!history`, `!show`) in Matrix markup (markup.ts).
 */
import type { AnswerMarkup, CommandNames, IncomingPort, IncomingRequest } from '../../src/chat/incoming-port.js';
import { STATUS_ICON, statusLine } from '../../src/chat/format.js';
import { workspaceListing } from '../../src/chat/workspace-view.js';
import { boundLine } from '../../src/text/cut.js';
import { block, finalState, fitted, inline, line, lines, strong, type MatrixMessage } from './markup.js';
import type { MatrixSettings } from './settings.js';

/** How Matrix spells the commands (a room has no slash commands for bots: `!` is the custom). */
export const MATRIX_COMMANDS: CommandNames = { run: '!run', generate: '!generate', history: '!history', show: '!show' };

/** The answers in Matrix markup. */
export const matrixAnswers: AnswerMarkup<MatrixMessage> = {
  text: (plain) => lines([line(plain)]),
  history({ runs }, names) {
    const rows = runs.map((r) => line(`${STATUS_ICON[r.status]} ${r.id} · ${boundLine(r.requirement, 80)} · ${r.createdAt.slice(0, 16).replace('T', ' ')} UTC`));
    return lines([strong(`Recent runs in this room (${names.show} <run id> for one)`), ...rows]);
  },
  show({ run, workspace }, names) {
    const listing = workspaceListing(workspace, `${names.show} ${run.id} remove <name> removes one`);
    const latest = run.attempts.at(-1);
    return fitted((chars) =>
      lines([
        inline(strong(`Run ${run.id}`), line(finalState(run))),
        line(`> ${boundLine(run.requirement, 300)}`),
        line(listing.title),
        ...(listing.lines.length ? [block(listing.lines.join('\n'), chars, 30)] : []),
        ...(latest ? [strong(`Attempt ${latest.index}`), block(latest.code || '(no code)', chars, 60, 'python')] : []),
        ...(latest?.result ? [line(statusLine(latest.result)), block(latest.result.stdout || latest.result.stderr || '(no output)', chars, 20)] : []),
      ]),
    );
  },
};

/** The refusal of a request from outside the access lists (plain text), or undefined when it may go on. */
export function refusalFor(settings: Pick<MatrixSettings, 'allowedRooms' | 'allowedUsers'>, roomId: string, userId: string): string | undefined {
  if (settings.allowedRooms.length > 0 && !settings.allowedRooms.includes(roomId)) return 'This bot is not enabled in this room (matrix.allowed_rooms).';
  if (settings.allowedUsers.length > 0 && !settings.allowedUsers.includes(userId)) return 'You are not on the list of people who may use this bot (matrix.allowed_users).';
  return undefined;
}

/** Matrix's {@link IncomingPort}. */
export function matrixIncoming(settings: MatrixSettings): IncomingPort<MatrixMessage> {
  return {
    platform: 'matrix',
    names: MATRIX_COMMANDS,
    access: (request: IncomingRequest) => refusalFor(settings, request.where.channel, request.who.userId),
    markup: matrixAnswers,
    // a thread's root event id names its run (`!show $event`)
    threadNamed: (arg) => (arg.startsWith('$') ? arg : undefined),
    historyLimit: settings.historyLimit,
  };
}
