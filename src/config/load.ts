/**
 * Loads `config.yaml`: parse YAML, expand `${VAR}` / `${VAR:-default}` from the environment in
 * string values, validate with the schema, and report problems by key path.
 */
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseDocument } from 'yaml';
import { configSchema, type Config } from './schema.js';
import { describeYamlError } from './yaml-error.js';
import { unsetCredentials } from './unset-credentials.js';
import { keysAt, unknownKeysProblem } from './key-hints.js';
import { ConfigError } from './errors.js';

export { ConfigError, type ConfigProblem } from './errors.js';

/** Default config file name, looked up in the current directory. */
export const DEFAULT_CONFIG_FILE = 'config.yaml';

const VAR_PATTERN = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Expands `${VAR}` and `${VAR:-default}` in every string of a parsed YAML tree.
 * `${VAR}` with VAR unset becomes the empty string; `:-` also applies when VAR is empty.
 */
export function expandEnv(value: unknown, env: NodeJS.ProcessEnv): unknown {
  if (typeof value === 'string') {
    return value.replace(VAR_PATTERN, (_m, name: string, def: string | undefined) => {
      const v = env[name];
      if (v === undefined || v === '') return def ?? '';
      return v;
    });
  }
  if (Array.isArray(value)) return value.map((v) => expandEnv(v, env));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expandEnv(v, env)]));
  }
  return value;
}

/**
 * Values used when a key is absent (before `${VAR}` expansion), as the README documents: the same
 * environment variables as the shipped config.yaml reads, so that they mean the same with or
 * without a config file (e.g. `CODE_AGENT_MODEL_PATH` for `code-agent run` in any directory).
 */
const ENV_DEFAULTS: Record<string, Record<string, string>> = {
  llm: {
    provider: '${CODE_AGENT_LLM_PROVIDER:-auto}',
    api_key: '${OPENAI_API_KEY:-}',
    base_url: '${OPENAI_BASE_URL:-}',
    model: '${CODE_AGENT_MODEL:-}',
    model_path: '${CODE_AGENT_MODEL_PATH:-}',
    threads: '${CODE_AGENT_LLM_THREADS:-0}',
  },
  agent: { verify: '${CODE_AGENT_VERIFY:-checks}' },
  store: { url: '${CODE_AGENT_STORE_URL:-sqlite://data/history.sqlite}' },
  log: { level: '${LOG_LEVEL:-info}' },
  slack: {
    bot_token: '${SLACK_BOT_TOKEN:-}',
    signing_secret: '${SLACK_SIGNING_SECRET:-}',
    app_token: '${SLACK_APP_TOKEN:-}',
    port: '${PORT:-3000}',
    api_url: '${SLACK_API_URL:-}',
  },
  discord: {
    token: '${DISCORD_TOKEN:-}',
    application_id: '${DISCORD_APPLICATION_ID:-}',
    api_url: '${DISCORD_API_URL:-}',
    guild_id: '${DISCORD_GUILD_ID:-}',
  },
  matrix: {
    homeserver_url: '${MATRIX_HOMESERVER_URL:-}',
    access_token: '${MATRIX_ACCESS_TOKEN:-}',
    user_id: '${MATRIX_USER_ID:-}',
  },
};

function withEnvDefaults(raw: unknown): unknown {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const out: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
  for (const [section, defaults] of Object.entries(ENV_DEFAULTS)) {
    const current = out[section] ?? {};
    if (current === null || typeof current !== 'object' || Array.isArray(current)) continue; // reported by the schema
    out[section] = { ...defaults, ...(current as Record<string, unknown>) };
  }
  return out;
}

/**
 * Validates an already-parsed config object.
 * @throws {ConfigError} listing every bad key as `path.to.key: problem`.
 */
export function parseConfig(raw: unknown, env: NodeJS.ProcessEnv = process.env, source = 'config'): Config {
  const withDefaults = withEnvDefaults(raw ?? {});
  const expanded = expandEnv(withDefaults, env);
  const result = configSchema.safeParse(expanded);
  const unset = unsetCredentials((withDefaults as Record<string, unknown>).tools, env);
  if (!result.success || unset.length > 0) {
    const invalid = (result.error?.issues ?? []).map((issue) => ({
      path: issue.path.join('.') || '(root)',
      problem: `${describeIssue(issue)}${fromEnvironment(valueAt(withDefaults, issue.path), env)}`,
    }));
    const problems = [...invalid, ...unset].sort((a, b) => a.path.localeCompare(b.path));
    throw new ConfigError(`${source} is invalid:\n${problems.map((p) => `  ${p.path}: ${p.problem}`).join('\n')}`, problems);
  }
  return result.data!;
}

function valueAt(tree: unknown, path: readonly PropertyKey[]): unknown {
  let node = tree;
  for (const key of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return node;
}

/**
 * ` (set by the environment variable VAR)` when a set variable made the value, else ''. The value
 * itself is not repeated (it may be a secret).
 */
function fromEnvironment(rawValue: unknown, env: NodeJS.ProcessEnv): string {
  if (typeof rawValue !== 'string') return '';
  const set = [...rawValue.matchAll(VAR_PATTERN)].map((m) => m[1]!).filter((name) => env[name] !== undefined && env[name] !== '');
  return set.length ? ` (set by the environment variable ${set.join(', ')})` : '';
}

function describeIssue(issue: {
  code: string;
  message: string;
  expected?: unknown;
  keys?: string[];
  minimum?: unknown;
  maximum?: unknown;
  inclusive?: boolean;
  origin?: string;
  values?: unknown[];
  path?: PropertyKey[];
}): string {
  if (issue.code === 'invalid_value' && issue.values?.length) {
    return `expected ${issue.values.length > 1 ? 'one of ' : ''}${issue.values.map((v) => String(v)).join(', ')}`;
  }
  if (issue.code === 'invalid_type' && typeof issue.expected === 'string') {
    const article = /^[aeiou]/.test(issue.expected) ? 'an' : 'a';
    return `expected ${article} ${issue.expected}`;
  }
  if ((issue.code === 'too_small' || issue.code === 'too_big') && issue.origin === 'number') {
    const bound = issue.code === 'too_small' ? issue.minimum : issue.maximum;
    const op = issue.code === 'too_small' ? (issue.inclusive ? '≥' : '>') : issue.inclusive ? '≤' : '<';
    return `expected a number ${op} ${String(bound)}`;
  }
  if (issue.code === 'unrecognized_keys' && issue.keys) return unknownKeysProblem(issue.keys, keysAt(configSchema, issue.path ?? []));
  return issue.message;
}

/** Where the config comes from: explicit path, `CODE_AGENT_CONFIG`, or `./config.yaml`. */
export function resolveConfigPath(explicit: string | undefined, env: NodeJS.ProcessEnv = process.env): {
  path: string;
  explicit: boolean;
} {
  const chosen = explicit ?? (env.CODE_AGENT_CONFIG || undefined);
  return chosen ? { path: resolve(chosen), explicit: true } : { path: resolve(DEFAULT_CONFIG_FILE), explicit: false };
}

/**
 * Loads and validates the configuration.
 * A missing default `config.yaml` yields the defaults; a missing explicit file is an error.
 * @throws {ConfigError} for a missing explicit file, malformed YAML (with line and column) or bad keys.
 */
export async function loadConfig(explicitPath?: string, env: NodeJS.ProcessEnv = process.env): Promise<Config> {
  const { path, explicit } = resolveConfigPath(explicitPath, env);
  if (!existsSync(path)) {
    if (explicit) throw new ConfigError(`config file not found: ${path}`);
    return parseConfig({}, env, 'the configuration (no config.yaml here: defaults and environment)');
  }
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' ? 'permission denied' : (err as Error).message;
    throw new ConfigError(`cannot read config file ${path}: ${why}`);
  }
  const doc = parseDocument(text, { prettyErrors: true });
  if (doc.errors.length > 0) {
    const problem = describeYamlError(text, doc.errors[0]!);
    throw new ConfigError(`config file ${path} is not valid YAML at line ${problem.line}, column ${problem.col}: ${problem.message}`);
  }
  return parseConfig(doc.toJS(), env, `config file ${path}`);
}
