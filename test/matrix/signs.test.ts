/**
 * Matrix's signs of work against a real Synapse: the message a run took gets the bot's read
 * receipt, and the bot shows as typing while the run works, no longer once it ended — seen from
 * alice's own `/sync` (ephemeral events: https://spec.matrix.org/v1.11/client-server-api/#typing-notifications).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUN_KEY } from '../../adapters/matrix/markup.js';
import { startMatrixWorld, type MatrixWorld } from './harness.js';
import { watchEphemeral } from '../helpers/matrix-ephemeral.js';

const py = (code: string) => `Here you go:\n\`\`\`python\n${code}\n\`\`\``;

describe('Matrix signs of work (Synapse)', () => {
  let w: MatrixWorld;
  beforeAll(async () => {
    w = await startMatrixWorld();
  }, 90_000);
  afterAll(async () => {
    await w?.close();
  });

  it('a read receipt on the message taken; typing while the run works, stopped at its end', async () => {
    const watch = watchEphemeral(w.hs.url, w.alice.user.accessToken, w.roomId);
    try {
      w.llm.enqueue(py('import time\ntime.sleep(2)\nprint("done")'));
      const root = await w.alice.client.sendText(w.roomId, '!run sleep briefly');
      const t = w.alice.timeline;
      await t.waitFor(() => t.inThread(root).some((e) => typeof e.content[RUN_KEY] === 'string'), 60_000, 'the final message');
      const bot = w.botUser.userId;
      const typing = () => watch.typing(bot);
      const until = Date.now() + 10_000;
      while (typing().at(-1) !== false && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
      expect(typing()).toContain(true);
      expect(typing().at(-1)).toBe(false);
      expect(watch.read(bot, root)).toBe(true);
    } finally {
      await watch.stop();
    }
  }, 90_000);
});
