/**
 * `code-agent model pull <uri>` as a user runs it (the built CLI): a cached model is found without
 * the network; one on a (fake, loopback) host is downloaded with a progress bar in MiB; an
 * unreachable one fails fast with the file to get and where to put it.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli, runCli } from './helpers/cli.js';
import { startModelHosts } from './fakes/model-hosts.js';


beforeAll(requireBuiltCli);

const cli = (args: string[], dir: string) => runCli(args, dir);

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'model-pull-'));
  writeFileSync(join(dir, 'config.yaml'), 'llm:\n  models_dir: models\n  download_timeout_s: 5\n');
  return dir;
}

describe('code-agent model pull', () => {
  it('prints the path of a model already in llm.models_dir, without the network', async () => {
    const dir = project();
    mkdirSync(join(dir, 'models'));
    writeFileSync(join(dir, 'models', 'hf_Owner_tiny.gguf'), 'GGUF');
    const r = await cli(['model', 'pull', 'hf:Owner/Repo-GGUF/tiny.gguf'], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(join(dir, 'models', 'hf_Owner_tiny.gguf'));
  });

  it('downloads a model with a progress bar on stderr that counts MiB and says so', async () => {
    const hosts = await startModelHosts();
    try {
      const bytes = Buffer.alloc(3_000_000, 1); // 2.9 MiB (3.0 MB): the unit shows in the figure
      bytes.write('GGUF');
      hosts.state.hfFiles.set('/m/tiny-coder.gguf', bytes);
      const dir = project();
      const r = await cli(['model', 'pull', `${hosts.url}/m/tiny-coder.gguf`, '--dir', 'models'], dir);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.trim()).toBe(join(dir, 'models', 'tiny-coder.gguf'));
      expect(r.stderr).toContain('100%  2.9/2.9 MiB');
      expect(r.stderr).not.toMatch(/\bMB\b/);
    } finally {
      await hosts.close();
    }
  });

  it('exits 1 quickly when the host is unreachable, naming the file and where to put it', async () => {
    const srv = net.createServer();
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
    const { port } = srv.address() as net.AddressInfo;
    await new Promise<void>((r) => srv.close(() => r()));
    const dir = project();
    const started = Date.now();
    const r = await cli(['model', 'pull', `http://127.0.0.1:${port}/m/tiny-coder.gguf`, '--dir', 'elsewhere'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Could not download the model');
    expect(r.stderr).toContain(join(dir, 'elsewhere', 'tiny-coder.gguf'));
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});
