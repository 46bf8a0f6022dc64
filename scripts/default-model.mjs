// The default-model step of `npm run setup` (after the build): `code-agent model fetch` puts the
// default local model into the user cache once, checked by sha256, and prints its path; this step
// says whether it was there already or was fetched now.
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Fetches the default model unless it is in the user cache already.
 * @param {string} root the checkout (built: dist/ is read)
 * @param {(line: string) => void} log gets a line before a download starts
 * @param {NodeJS.ProcessEnv} env where the user cache is (`CODE_AGENT_CACHE`, `XDG_CACHE_HOME`, HOME)
 * @returns {Promise<string>} `default local model: already in the user cache: <path>` or `default local model: fetched: <path>`
 * @throws when `model fetch` fails (its own error is on stderr)
 */
export async function fetchDefaultModel(root, log, env = process.env) {
  const { DEFAULT_LOCAL_MODEL, KNOWN_MODELS, userModelsDir } = await import(join(root, 'dist', 'src', 'llm', 'model-catalog.js'));
  const known = KNOWN_MODELS[DEFAULT_LOCAL_MODEL];
  const target = join(userModelsDir(env), known.file);
  const before = existsSync(target) ? statSync(target).mtimeMs : undefined;
  if (before === undefined) log(`default local model (${known.name}, 1.1 GB, once, into the user cache):`);
  // `model fetch` fetches again on a sha256 mismatch (a new mtime) and prints the path on stdout
  const path = execFileSync('node', [join(root, 'dist', 'adapters', 'cli', 'bin.js'), 'model', 'fetch'], {
    cwd: root,
    env,
    stdio: ['inherit', 'pipe', 'inherit'],
    encoding: 'utf8',
  }).trim();
  const kept = before !== undefined && statSync(path).mtimeMs === before;
  return `default local model: ${kept ? 'already in the user cache' : 'fetched'}: ${path}`;
}
