/** `/generate`, `/history`, `/show`, and long code as a snippet file. */
import { afterEach, describe, expect, it } from 'vitest';
import { allText, py, startWorld, type World } from './harness.js';
import { fencedSection } from '../../adapters/slack/renderer.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('commands', () => {
  it('/generate posts code without running it', async () => {
    world = await startWorld({ replies: [py('print("not run")')] });
    await world.command({ command: '/generate', text: 'write a hello' });
    const root = await world.rootTs();
    await world.finished(root);
    const text = allText(world.threadPosts(root));
    expect(text).toContain('print("not run")');
    expect(text).not.toContain('*Result of attempt');
    expect(text).toContain('📝 Code generated (not run)');
  });

  it('/history lists the channel runs with who, requirement, status and link; /show the latest code', async () => {
    world = await startWorld({ replies: [py('print("first")'), py('print(undefined_x)')], maxRetries: 0 });
    await world.command({ text: 'first <@U999> thing' });
    const first = await world.rootTs();
    await world.finished(first);
    await world.command({ text: 'second thing', user_id: 'U_BOB', user_name: 'bob' });
    const second = await world.rootTs('C_MAIN', 1);
    await world.finished(second);
    const history = await world.command({ command: '/history', text: '', user_id: 'U_CAROL' });
    const h = JSON.stringify(history.body);
    expect(history.body).toMatchObject({ response_type: 'ephemeral' });
    // the mention arrived as <@U999> and is kept as plain text (README "Chat input"): it cannot ping
    expect(h.indexOf('second thing')).toBeLessThan(h.indexOf('first @U999 thing'));
    expect(h.indexOf('first @U999 thing')).toBeGreaterThan(0);
    expect(h).toContain('bob');
    expect(h).toContain('success');
    expect(h).toContain('failed');
    expect(h).toContain(`p${second.replace('.', '')}`);
    expect(h).not.toContain('<@U999>');
    // other channels have their own history
    const other = await world.command({ command: '/history', text: '', channel_id: 'C_OTHER' });
    expect(JSON.stringify(other.body)).toContain('No runs in this channel yet');

    const show = await world.command({ command: '/show', text: '' });
    expect(JSON.stringify(show.body)).toContain('print(undefined_x)');
    const byThread = await world.command({ command: '/show', text: first });
    expect(JSON.stringify(byThread.body)).toContain('print(\\"first\\")');
  });

  it('attaches long code as a snippet file', async () => {
    const long = Array.from({ length: 200 }, (_, i) => `value_${i} = ${i}  # a fairly long line to push the code past the limit`).join('\n');
    world = await startWorld({ replies: [py(`${long}\nprint("long done")`)] });
    await world.command({ text: 'long program' });
    const root = await world.rootTs();
    await world.finished(root);
    const file = world.slack.uploads.find((u) => u.filename.endsWith('.py'));
    expect(file?.bytes.toString()).toContain('value_199 = 199');
    // what the thread shows in the end: each post's last edit (the code message may have been streamed, then edited)
    const shown = world.threadPosts(root).map((post) => world!.slack.callsOf('chat.update').filter((u) => u.args.ts === post.result?.ts).at(-1) ?? post);
    expect(allText(shown)).toContain('attached as a file');
  });
});

describe('fencedSection', () => {
  it('stays within 3000 characters even when escaping grows the text', () => {
    const out = fencedSection('<'.repeat(5000), '*stdout*');
    expect(out.text.length).toBeLessThanOrEqual(3000);
    expect(out.truncated).toBe(true);
    expect(out.text).not.toContain('<');
  });
});
