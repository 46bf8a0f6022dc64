/** Where code-agent keeps what it may fetch or compute again (models, probes of the sandbox's Python). */
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The user cache of code-agent: `$CODE_AGENT_CACHE`, else `$XDG_CACHE_HOME/code-agent`, else `~/.cache/code-agent`. */
export function userCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CODE_AGENT_CACHE) return env.CODE_AGENT_CACHE;
  return join(env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache'), 'code-agent');
}
