/**
 * Peak memory of one `code-agent run`: the real CLI (its `main()`) in a child Node process, the
 * real openai client against the fake OpenAI server, the real sandbox. Prints the child's peak
 * resident set (maxRSS) and, as a baseline in the same run, that of a bare `node -e ""`.
 *
 * Run: `npm run build && node dist/bench/run-memory.js`
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startFakeOpenAi } from '../test/fakes/openai-server.js';

const MAIN = resolve('dist/adapters/cli/main.js');
const RUNS = 5;

/** Runs `script` in a child node and returns the maxRSS (KiB) it reports on its last stderr line. */
function childMaxRss(script: string, cwd: string): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => {
      const match = /maxRSS=(\d+)/.exec(stderr);
      if (!match) reject(new Error(`child exited ${code} without a figure:\n${stderr}`));
      else resolvePromise(Number(match[1]));
    });
  });
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

const plot = '```python\nimport matplotlib.pyplot as plt\nimport numpy as np\nx = np.linspace(0, 6.3, 100)\nplt.plot(x, np.sin(x), label="sin")\nplt.legend()\nprint("ok")\n```';
const fake = await startFakeOpenAi({ respond: () => plot });
try {
  const dir = mkdtempSync(join(tmpdir(), 'bench-run-memory-'));
  writeFileSync(join(dir, 'config.yaml'), `llm:\n  provider: openai\n  base_url: ${fake.url}\n  model: fake-model\n`);
  const runScript = `const { main } = await import(${JSON.stringify(MAIN)});
const code = await main(['run', '--json', 'plot sin(x)']);
process.stderr.write('exit=' + code + ' maxRSS=' + process.resourceUsage().maxRSS + '\\n');`;
  const bareScript = `process.stderr.write('maxRSS=' + process.resourceUsage().maxRSS + '\\n');`;
  const runs: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    runs.push(await childMaxRss(runScript, dir));
    bare.push(await childMaxRss(bareScript, dir));
  }
  const mib = (kib: number) => (kib / 1024).toFixed(1);
  console.log(`peak memory of one code-agent run (CLI process, ${RUNS} runs): median ${mib(median(runs))} MiB`);
  console.log(`bare node process (baseline): median ${mib(median(bare))} MiB`);
  console.log(`ratio: ${(median(runs) / median(bare)).toFixed(2)}x`);
} finally {
  await fake.close();
}
