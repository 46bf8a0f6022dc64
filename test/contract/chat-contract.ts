/**
 * The chat contract: the same scenarios against every platform (test/contract/drivers.ts), embedded
 * and in queue mode. Each world runs the scenarios in order on one channel; every scenario scripts
 * the LLM replies it uses. A test file per platform and mode runs it
 * (chat-contract-<platform>-<mode>.test.ts), so that the six worlds spread over the test workers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdir } from 'node:fs/promises';
import { WORLDS, type ChatDriver } from './drivers.js';

/** The names of the files under a directory, at any depth (empty when it does not exist). */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => e.name);
}

const py = (code: string) => `Here you go:\n\`\`\`python\n${code}\n\`\`\``;

/** The contract's scenarios for one platform's world (`Slack`, …) of one mode (`embedded` or `queue mode`). */
export function chatContract(platform: string, mode: 'embedded' | 'queue mode'): void {
  const name = `${platform}, ${mode}`;
  if (!WORLDS[name]) throw new Error(`no contract world named ${name} (test/contract/drivers.ts)`);
  describe(name, () => {
    let chat: ChatDriver;
    let thread: string;
    beforeAll(async () => {
      chat = await WORLDS[name]!();
    }, 120_000);
    afterAll(async () => {
      await chat?.close();
    });

    it('a run with a failed attempt and its fix shows both, and ends in success', async () => {
      chat.llm.enqueue(py('print(undefined_name)'), py('print("fixed")'));
      const started = await chat.run('print the word fixed');
      thread = await started.thread();
      const [final] = await chat.finals(thread, 1);
      expect(final).toMatch(/success|Success/);
      expect(final).toMatch(/2 attempt/);
      const text = chat.text(thread);
      expect(text).toContain('NameError');
      expect(text).toContain('fixed');
    });

    it("the platform's own signs of work show while the run works and stop at its end", async () => {
      const signs = await chat.signs(thread);
      expect(signs.working).toBe(true);
      expect(signs.stopped).toBe(true);
    });

    it('a reply in the thread improves the run, its file placed in the sandbox', async () => {
      chat.llm.enqueue(py('print(open("data.csv").read().strip().upper())'));
      await chat.reply(thread, 'read data.csv and print it in capitals', { file: { name: 'data.csv', data: Buffer.from('a,b\n') } });
      await chat.finals(thread, 2);
      expect(chat.text(thread)).toContain('A,B');
      expect(JSON.stringify(chat.llm.requests.at(-1)!.messages)).toContain('read data.csv and print it in capitals');
    });

    it('Re-run runs the latest code again without the LLM; Improve takes feedback', async () => {
      const asked = chat.llm.requests.length;
      await chat.rerun(thread);
      await chat.finals(thread, 3);
      expect(chat.llm.requests.length).toBe(asked);
      chat.llm.enqueue(py('print("better")'));
      await chat.improve(thread, 'print better instead');
      await chat.finals(thread, 4);
      expect(JSON.stringify(chat.llm.requests.at(-1)!.messages)).toContain('print better instead');
      expect(chat.text(thread)).toContain('better');
    });

    it('a run delivered twice runs once', async () => {
      const asked = chat.llm.requests.length;
      chat.llm.enqueue(py('print("once")'));
      const started = await chat.run('print once', { twice: true });
      await chat.finals(await started.thread(), 1);
      await new Promise((r) => setTimeout(r, 500));
      expect(chat.llm.requests.length).toBe(asked + 1);
    });

    it('a second run of a user whose job runs is refused as busy; the first finishes', async () => {
      chat.llm.enqueue(py('import time; time.sleep(2); print("slow")'));
      const first = await chat.run('print slow, slowly');
      const slow = await first.thread();
      const second = await chat.run('another one');
      expect(await second.answer()).toContain('already have a job running');
      expect(await chat.finals(slow, 1)).toHaveLength(1);
    });

    it('a run can start with a file', async () => {
      chat.llm.enqueue(py('print(open("nums.txt").read().split()[0])'));
      // user 2: in queue mode user 1's slot of the previous scenario is freed just after its final message
      const started = await chat.run('print the first number in nums.txt', { user: 2, file: { name: 'nums.txt', data: Buffer.from('7 8 9\n') } });
      const t = await started.thread();
      await chat.finals(t, 1);
      expect(chat.text(t)).toMatch(/\b7\b/);
      expect(JSON.stringify(chat.llm.requests.at(-1)!.messages)).toContain('nums.txt');
    });

    it('history lists the runs, and show the newest one\'s code', async () => {
      const history = await chat.history();
      expect(history).toContain('print the word fixed');
      expect(history).toContain('print the first number in nums.txt');
      expect(await chat.show()).toContain('nums.txt');
    });

    it('a reply sent the moment the thread appears is answered (the thread is linked to its run before the agent is called)', async () => {
      chat.llm.enqueue(py('print(open("words.txt").read().split()[0])'), py('print(open("words.txt").read().split()[1])'));
      // with a file: its download widens the moment between the thread's first message and the agent's call
      const started = await chat.run('print the first word of words.txt', { file: { name: 'words.txt', data: Buffer.from('alpha beta\n') } });
      const t = await started.thread();
      await chat.reply(t, 'print the second word instead');
      const finals = await chat.finals(t, 2);
      expect(finals.every((f) => /success|Success/.test(f))).toBe(true);
      const text = chat.text(t);
      expect(text).toContain('alpha');
      expect(text).toContain('beta');
      expect(JSON.stringify(chat.llm.requests.at(-1)!.messages)).toContain('print the second word instead');
    });

    it('/remember: the next run carries the definition and its thread says so; /memory lists it (anyone); forget removes it from the next run', async () => {
      const definition = 'revenue = units × unit_price';
      const told = 'revenue = units * unit_price'; // as the prompt writes it
      const said = await chat.remember(definition);
      expect(said).toMatch(/Remembered for this channel \(m\d+\)/);
      const id = /\((m\d+)\)/.exec(said)![1]!;
      chat.llm.enqueue(py('print("revenue 42")'));
      const t = await (await chat.run('total revenue', { user: 2 })).thread();
      await chat.finals(t, 1);
      const asked = chat.llm.requests.filter((r) => JSON.stringify(r.messages).includes('total revenue'));
      expect(asked.length).toBeGreaterThan(0);
      for (const r of asked) expect(JSON.stringify(r.messages)).toContain(told);
      expect(chat.text(t)).toMatch(/📌 used from this channel's memory/);
      expect(chat.text(t)).toContain(definition);
      const listed = await chat.memory();
      expect(listed).toContain(id);
      expect(listed).toContain(definition);
      // anyone in the channel may forget (user 2 added nothing)
      expect(await chat.memory(`forget ${id}`)).toMatch(/Forgotten \(m\d+\)/);
      expect(await chat.memory(`forget ${id}`)).toMatch(new RegExp(`${id} was forgotten already, by `));
      expect(await chat.memory()).toMatch(/memory of this channel is empty/);
      chat.llm.enqueue(py('print("revenue 43")'));
      const before = chat.llm.requests.length;
      const t2 = await (await chat.run('total revenue again', { user: 2 })).thread();
      await chat.finals(t2, 1);
      for (const r of chat.llm.requests.slice(before)) expect(JSON.stringify(r.messages)).not.toContain(told);
      expect(chat.text(t2)).not.toContain('📌');
    });

    it('a reply that corrects a reading offers to remember what it states; Remember (anyone) keeps it for the channel', async () => {
      chat.llm.enqueue(py('print("sales 10")'), py('print("revenue 7")'));
      const t = await (await chat.run('total sales', { user: 2 })).thread();
      await chat.finals(t, 1);
      expect(chat.offered(t)).toBe(false); // a first answer corrects nothing
      await chat.reply(t, 'No, wrong: sales means units times unit_price here', { user: 2 }); // the offer keeps what the reply states
      await chat.finals(t, 2);
      const until = Date.now() + 20_000;
      while (!chat.offered(t) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      expect(chat.offered(t)).toBe(true);
      expect(chat.text(t)).toContain('Remember for this channel?');
      await chat.pressRemember(t);
      let listed = '';
      while (!listed.includes('sales means units times unit_price here') && Date.now() < until + 20_000) {
        listed = await chat.memory();
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(listed).toContain('sales means units times unit_price here');
      const id = /(m\d+) · sales means/.exec(listed)![1]!;
      expect(await chat.memory(`forget ${id}`)).toMatch(/Forgotten/);
    });

    it('B4: a reply that only asks for more (the earlier values kept) offers nothing to remember', async () => {
      chat.llm.enqueue(py('print([2, 3, 5, 7])'), py('p = [2, 3, 5, 7]\nprint(p)\nprint(len(p))'));
      const t = await (await chat.run('print the primes below 10', { user: 2 })).thread();
      await chat.finals(t, 1);
      await chat.reply(t, 'print how many primes there are as well', { user: 2 });
      const finals = await chat.finals(t, 2);
      expect(finals[1]).toMatch(/success|Success/);
      await new Promise((r) => setTimeout(r, 1000)); // the offer would follow the final message
      expect(chat.offered(t)).toBe(false);
      expect(chat.text(t)).not.toContain('Remember for this channel?');
    });

    describe('a thread is a workspace', () => {
      /** A test that moves the workers (queue mode: new worker processes start) may take this long on a busy machine, in ms. */
      const MOVING_WORKERS_MS = 120_000;
      let w1: string;
      const inventory = Buffer.from('sku,qty\nA1,3\nB2,1\nA1,4\nC3,9\nB2,2\nD4,5\n'); // 7 lines, 4 distinct skus
      const countLines = py('print("lines=" + str(len(open("inventory.csv").read().splitlines())))');

      it('W1: the run asks for a file; the reply with it runs the same program with the file and succeeds', async () => {
        chat.llm.enqueue(countLines);
        w1 = await (await chat.run('count the lines of inventory.csv')).thread();
        const [first] = await chat.finals(w1, 1);
        expect(first).toMatch(/[Ff]ailed/);
        expect(chat.text(w1)).toMatch(/attach inventory\.csv/);
        chat.llm.enqueue(countLines);
        await chat.moveWorkers?.(); // queue mode: the reply runs on another host
        await chat.reply(w1, 'here it is', { file: { name: 'inventory.csv', data: inventory } });
        const finals = await chat.finals(w1, 2);
        expect(finals[1]).toMatch(/success|Success/);
        const text = chat.text(w1);
        expect(text).toContain('lines=7');
        expect(text).not.toMatch(/not run again/);
        // the reply's attempt is the run's attempt 2: numbers continue, never "attempt 1" of the reply again
        const afterFirst = text.slice(text.indexOf(first!) + first!.length);
        expect(afterFirst).toMatch(/[Aa]ttempt\*{0,2} 2\b/);
        expect(afterFirst).not.toMatch(/[Aa]ttempt\*{0,2} 1\b/);
      }, MOVING_WORKERS_MS);

      it('W1: a later reply without the file finds it; Re-run succeeds; /show lists the workspace', async () => {
        const host = await chat.moveWorkers?.(); // queue mode: yet another host, with none of the files on its disk
        chat.llm.enqueue(py('import csv\nprint("distinct=" + str(len({r["sku"] for r in csv.DictReader(open("inventory.csv"))})))'));
        await chat.reply(w1, 'and the number of distinct sku values');
        const finals = await chat.finals(w1, 3);
        expect(finals[2]).toMatch(/success|Success/);
        expect(chat.text(w1)).toContain('distinct=4');
        if (host) expect(await filesUnder(host)).not.toContain('inventory.csv');
        const asked = chat.llm.requests.length;
        await chat.rerun(w1);
        const again = await chat.finals(w1, 4);
        expect(again[3]).toMatch(/success|Success/);
        expect(chat.llm.requests.length).toBe(asked);
        expect(chat.text(w1).split('distinct=4').length).toBeGreaterThan(2);
        // the end message names the workspace
        expect(again[3]).toMatch(/[Ww]orkspace.*inventory\.csv/s);
        const shown = await chat.show(w1);
        expect(shown).toMatch(/inventory\.csv \(\d+ B, given\)/);
      }, MOVING_WORKERS_MS);

      it('W2: a file a turn wrote is an input of the next; a newer file of that name replaces it, and the thread says so', async () => {
        chat.llm.enqueue(py('with open("clean.csv", "w") as f:\n    f.write("x,y\\n1,10\\n2,20\\n3,12\\n")\nprint("wrote clean.csv")'));
        const t = await (await chat.run('write clean.csv with two columns')).thread();
        expect((await chat.finals(t, 1))[0]).toMatch(/success|Success/);
        const secondColumn = py('import csv\nrows = list(csv.reader(open("clean.csv")))[1:]\nopen("col2.txt", "w").write(" ".join(r[1] for r in rows))\nprint("sum2=" + str(sum(int(r[1]) for r in rows)))');
        chat.llm.enqueue(secondColumn);
        const host = await chat.moveWorkers?.(); // queue mode: the next turn runs on another host
        await chat.reply(t, 'write the second column of clean.csv to col2.txt and print its sum');
        expect((await chat.finals(t, 2))[1]).toMatch(/success|Success/);
        expect(chat.text(t)).toContain('sum2=42');
        // the worker of the other host ran the turn (its artifact is on that host's disk), and clean.csv
        // came from the shared store: that disk never had it
        if (host) {
          const there = await filesUnder(host);
          expect(there).toContain('col2.txt');
          expect(there).not.toContain('clean.csv');
        }
        expect(JSON.stringify(chat.llm.requests.at(-1)!.messages)).toMatch(/clean\.csv \([^)]*written by the program of attempt 1\)/);
        chat.llm.enqueue(secondColumn);
        await chat.reply(t, 'again, with this one', { file: { name: 'clean.csv', data: Buffer.from('x,y\n1,1\n2,2\n') } });
        expect((await chat.finals(t, 3))[2]).toMatch(/success|Success/);
        expect(chat.text(t)).toMatch(/clean\.csv replaced the earlier file of that name/);
        expect(chat.text(t)).toContain('sum2=3');
        // removing a file from the workspace: later turns no longer find it
        expect(await chat.removeFile(t, 'clean.csv')).toMatch(/removed/i);
        expect(await chat.show(t)).not.toContain('clean.csv (');
        chat.llm.enqueue(py('import os\nprint("has=" + str(os.path.exists("clean.csv")))'));
        await chat.reply(t, 'is clean.csv still there?');
        await chat.finals(t, 4);
        expect(chat.text(t)).toContain('has=False');
      }, MOVING_WORKERS_MS);

      it('two replies at once on a run still at work: both run after it, in order, the later ones say they are queued; retries are deduplicated', async () => {
        // queue mode: a second worker, so that a reply's job starts while the run's job is at work on the
        // other one and waits for the run's turn there
        await chat.addWorker?.();
        const asked = chat.llm.requests.length;
        const bounced = () => chat.told().split('already have a job running').length;
        const bouncedBefore = bounced();
        // outputs the thread can show only when the programs ran (the code and the replies spell them apart)
        chat.llm.enqueue(py('import time; time.sleep(2); print("out" + "-one")'), py('print("out" + "-a")'), py('print("out" + "-b")'));
        const t = await (await chat.run('print turn-one slowly')).thread();
        // once its code shows, the run is at work (its thread linked): it sleeps for 2 s
        const until = Date.now() + 30_000;
        while (!chat.text(t).includes('time.sleep(2)') && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
        // the requester replies while the run is still at work, another user right after: delivered twice each
        await chat.reply(t, 'print reply-a', { user: 1, twice: true });
        await new Promise((r) => setTimeout(r, 200));
        await chat.reply(t, 'print reply-b', { user: 2, twice: true });
        const finals = await chat.finals(t, 3);
        expect(finals.every((f) => /success|Success/.test(f))).toBe(true);
        const text = chat.text(t);
        expect(`${text}\n${chat.told()}`).toMatch(/Queued|waits for it|queued/);
        if (chat.addWorker) expect(text).toMatch(/Another request on this run is going; this one waits for it/);
        // one after the other: the run first; then each reply once, on attempts 2 and 3 (in either order
        // when two workers compete for the turn)
        expect(text.indexOf('out-one')).toBeGreaterThan(-1);
        expect(text.indexOf('out-one')).toBeLessThan(Math.min(text.indexOf('out-a'), text.indexOf('out-b')));
        expect(text.split('out-a').length - 1).toBeGreaterThan(0);
        expect(text.split('out-b').length - 1).toBeGreaterThan(0);
        expect(finals.join('\n')).toMatch(/3 attempt/);
        await new Promise((r) => setTimeout(r, 1500));
        expect(chat.llm.requests.length).toBe(asked + 3);
        expect(await chat.finals(t, 3)).toHaveLength(3);
        expect(bounced()).toBe(bouncedBefore);
      }, 90_000);
    });

    /** The thread of the run `units-by-region` was saved from (set by the first team programs scenario). */
    let programThread: string | undefined;
    /** The team program of the scenarios below, saved as the first one does when it did not run. @returns the thread of the run it was saved from */
    const ensureProgram = async (): Promise<string> => {
      if (programThread && /units-by-region v\d/.test(await chat.programs())) return programThread;
      chat.llm.enqueue(py('import csv\nDAYS = 7\nREGION = "EU"\nrows = list(csv.DictReader(open("sales.csv")))\nprint(f"{REGION} over {DAYS} days: " + str(sum(int(r["units"]) for r in rows if r["region"] == REGION)))'));
      const t = await (await chat.run('units sold in the EU over the last 7 days', { file: { name: 'sales.csv', data: Buffer.from('region,units\nEU,2\nEU,3\nUS,3\n') } })).thread();
      await chat.finals(t, 1);
      await chat.saveProgram(t, 'units-by-region');
      await expect.poll(() => chat.programs(), { timeout: 30_000, interval: 500 }).toMatch(/units-by-region v1/);
      programThread = t;
      return t;
    };

    it('team programs: a run saved by name runs again with no LLM call, marked as the team program; /programs, show, a bad value and files that do not fit are said before anything runs', async () => {
      const sales = Buffer.from('region,units\nEU,2\nEU,3\nUS,3\n');
      chat.llm.enqueue(py('import csv\nDAYS = 7\nREGION = "EU"\nrows = list(csv.DictReader(open("sales.csv")))\nprint(f"{REGION} over {DAYS} days: " + str(sum(int(r["units"]) for r in rows if r["region"] == REGION)))'));
      const t = await (await chat.run('units sold in the EU over the last 7 days', { file: { name: 'sales.csv', data: sales } })).thread();
      expect((await chat.finals(t, 1))[0]).toMatch(/success|Success/);
      expect(chat.text(t)).toContain('EU over 7 days: 5');
      await chat.saveProgram(t, 'units-by-region');
      programThread = t;
      const until = Date.now() + 30_000;
      while (!chat.text(t).includes('Saved as team program') && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
      expect(chat.text(t)).toMatch(/Saved as team program .units-by-region. v1/);
      expect(await chat.programs()).toMatch(/units-by-region v1 · approved by/);
      const asked = chat.llm.requests.length;
      // run by name with values: a new thread, no LLM call, the team's mark
      const ran = await (await chat.program('units-by-region REGION=US DAYS=30')).thread();
      const [final] = await chat.finals(ran, 1);
      expect(final).toMatch(/team program .units-by-region. v1, approved by/);
      expect(chat.text(ran)).toContain('US over 30 days: 3');
      expect(chat.llm.requests.length).toBe(asked);
      // show: its code, inputs and parameters
      const shown = await (await chat.program('units-by-region show')).answer();
      for (const part of ['DAYS', 'REGION', 'csv.DictReader', 'sales.csv', 'v1']) expect(shown).toContain(part);
      // a value that cannot be read is refused, with an example
      expect(await (await chat.program('units-by-region DAYS=soon')).answer()).toMatch(/DAYS takes a whole number \(int\); \\?"soon\\?" was not read as a number\. For example: DAYS=8/);
      // files that do not fit: said before anything runs
      const misfit = await (await chat.program('units-by-region', { file: { name: 'sales.csv', data: Buffer.from('area,units\nEU,1\n') } })).thread();
      await chat.finals(misfit, 1);
      expect(chat.text(misfit)).toMatch(/do not fit team program .units-by-region. v1, so nothing was run/);
      expect(chat.text(misfit)).toMatch(/sales\.csv has no column .region./);
      expect(chat.text(misfit)).not.toMatch(/over \d+ days/);
      expect(chat.llm.requests.length).toBe(asked);
    }, 180_000);

    it("team programs and access: someone the channel's access lists leave out cannot save, run, schedule or remove one; each is refused, with no LLM call, and nothing changes", async () => {
      const t = await ensureProgram();
      const programs = await chat.programs();
      const schedules = await chat.schedules();
      const asked = chat.llm.requests.length;
      const { outsider } = chat;
      expect(await outsider.save(t, 'sneaky')).toMatch(outsider.refusal);
      expect(await outsider.program('units-by-region REGION=US')).toMatch(outsider.refusal);
      expect(await outsider.schedule('units-by-region', 'every day at 9')).toMatch(outsider.refusal);
      expect(await outsider.program('units-by-region remove')).toMatch(outsider.refusal);
      await new Promise((r) => setTimeout(r, 1000)); // anything queued by mistake would be at work by now
      expect(await chat.programs()).toBe(programs);
      expect(programs).toMatch(/units-by-region v1/);
      expect(programs).not.toContain('sneaky');
      expect(await chat.schedules()).toBe(schedules);
      expect(schedules).not.toContain('units-by-region');
      expect(chat.text(t)).not.toMatch(/Saved as team program .sneaky./);
      expect(chat.llm.requests.length).toBe(asked);
    }, 120_000);

    it('team programs asked in other words: a paraphrase runs the program at once, the thread naming it, with one short LLM call; "Write a new program" takes the usual path; remove', async () => {
      await ensureProgram();
      const asked = chat.llm.requests.length;
      // the matching call's answer: this program, with the values the request sets
      chat.llm.enqueue('{"match": true, "params": {"REGION": "EU", "DAYS": 14}}');
      const paraphrase = 'how many units did the EU region sell over the past 14 days?';
      const t = await (await chat.run(paraphrase)).thread();
      const [matched] = await chat.finals(t, 1);
      expect(matched).toMatch(/team program .units-by-region. v1, approved by/);
      expect(chat.text(t)).toMatch(/This looks like team program .units-by-region. v1, approved by .+: running it \(the saved code, no LLM call\)/);
      expect(chat.text(t)).toContain('EU over 14 days: 5');
      expect(chat.llm.requests.length).toBe(asked + 1); // the matching call only: no code was written
      expect(JSON.stringify(chat.llm.requests[asked]!.messages)).toContain(paraphrase);
      expect(chat.choices(t)).toContain('program:new');
      // "Write a new program": the agent writes one for the request as it was asked
      chat.llm.enqueue(py('import csv\nrows = list(csv.DictReader(open("sales.csv")))\nprint("written anew: " + str(sum(int(r["units"]) for r in rows)))'));
      await chat.click(t, 'program:new');
      const finals = await chat.finals(t, 2);
      expect(finals[1]).toMatch(/success|Success/);
      expect(finals[1]).not.toMatch(/team program .units-by-region./);
      expect(chat.text(t)).toContain('written anew: 8');
      expect(chat.llm.requests.length).toBe(asked + 2);
      const prompt = JSON.stringify(chat.llm.requests[asked + 1]!.messages);
      expect(prompt).toContain(paraphrase);
      expect(prompt).toContain('Write a new program for the request');
      expect(chat.choices(t)).not.toContain('program:new');
      // removed by anyone who may use the channel; no longer listed
      expect(await (await chat.program('units-by-region remove')).answer()).toMatch(/Removed team program .units-by-region./);
      expect(await chat.programs()).toMatch(/No team programs in this channel yet/);
    }, 180_000);

    it("deleting a thread's run: the answer says what went (record, files, thread link, workers' caches); the run is gone from /show and /history", async () => {
      chat.llm.enqueue(py('open("secret.csv", "w").write("customer,amount\\nacme,5\\n")\nprint("deleted-run-marker")'));
      const started = await chat.run('write secret.csv with one customer');
      const t = await started.thread();
      expect((await chat.finals(t, 1))[0]).toMatch(/success|Success/);
      expect(await chat.show(t)).toContain('secret.csv (');
      const answer = await chat.deleteRun(t);
      expect(answer).toMatch(/Deleted run \S+: its record \(1 attempt with their code and output\), its workspace \(1 file/);
      expect(answer).toMatch(/1 thread link/);
      expect(answer).toMatch(/every worker.s workspace cache/);
      expect(await chat.show(t)).toMatch(/No run \S+ in this channel.s history/);
      expect(await chat.history()).not.toContain('write secret.csv with one customer');
    }, 120_000);

    // queue mode only: an embedded app's jobs die with it (its runs are ended when next read, test/history)
    if (name.includes('queue')) it('a worker killed mid-run: the thread says so and the run ends failed', async () => {
      chat.llm.enqueue(py('import time; time.sleep(30); print("never")'));
      const asked = chat.llm.requests.length;
      const started = await chat.run('sleep for a long time');
      const t = await started.thread();
      await new Promise<void>((resolve) => {
        const poll = () => (chat.llm.requests.length > asked ? setTimeout(resolve, 1500) : setTimeout(poll, 50));
        poll();
      });
      await chat.killWorkers!();
      const deadline = Date.now() + 30_000;
      while (!/interrupted/.test(chat.text(t)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(chat.text(t)).toMatch(/interrupted: the worker running it stopped/);
      const shown = await chat.show(); // the newest run
      expect(shown).toContain('sleep for a long time');
      expect(shown).toMatch(/failed/i);
    }, 120_000);
  });
}
