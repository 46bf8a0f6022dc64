/** Matrix's answers to a requester (a refusal, `!history`, `!show`, `!remember`, `!memory`) in Matrix markup (markup.ts). */
import type { AnswerMarkup } from '../../src/chat/incoming-port.js';
import { STATUS_ICON, statusLine } from '../../src/chat/format.js';
import { workspaceListing } from '../../src/chat/workspace-view.js';
import { boundLine } from '../../src/text/cut.js';
import { block, finalState, fitted, inline, line, lines, strong, type MatrixMessage } from './markup.js';

/** The answers in Matrix markup. */
export const matrixAnswers: AnswerMarkup<MatrixMessage> = {
  text: (plain) => lines([line(plain)]),
  history({ runs }, names) {
    const rows = runs.map((r) => line(`${STATUS_ICON[r.status]} ${r.id} · ${boundLine(r.requirement, 80)} · ${r.createdAt.slice(0, 16).replace('T', ' ')} UTC`));
    return lines([strong(`Recent runs in this room (${names.show} <run id> for one)`), ...rows]);
  },
  // the entries are the team's text: shown in a code block
  memory: (reply) => lines([line(reply.title), ...(reply.lines.length ? [block(reply.lines.join('\n'))] : [])]),
  show({ run, workspace }, names) {
    const listing = workspaceListing(workspace, `${names.show} ${run.id} remove <name> removes one; ${names.show} ${run.id} remove deletes the run`);
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
