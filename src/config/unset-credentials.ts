/**
 * Credentials of the tools that name an environment variable nobody set. `${VAR}` with VAR unset
 * expands to '' everywhere else (the shipped config relies on it), but a credential header or a
 * database URL made empty is never what the operator meant: the API answers 401, the database
 * refuses, and nothing says why. `${VAR:-}` states that empty is intended.
 */
import type { ConfigProblem } from './errors.js';

const VAR_WITHOUT_DEFAULT = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * The problems of `tools.http.headers.<entry>.<header>` and `tools.sql.sources.<name>.url` values
 * (as written, before expansion) that use `${VAR}` with VAR unset or empty in `env`.
 * @param tools the raw `tools` section (anything: a malformed one is the schema's to report)
 */
export function unsetCredentials(tools: unknown, env: NodeJS.ProcessEnv): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const check = (path: string, value: unknown) => {
    if (typeof value !== 'string') return;
    for (const [, name] of value.matchAll(VAR_WITHOUT_DEFAULT)) {
      if (env[name!] === undefined || env[name!] === '') {
        problems.push({ path, problem: `\${${name}} is not set in the environment, so this credential would be sent empty (set it, or write \${${name}:-} if empty is intended)` });
      }
    }
  };
  for (const [entry, headers] of Object.entries(asObject(asObject(asObject(tools).http).headers))) {
    for (const [header, value] of Object.entries(asObject(headers))) check(`tools.http.headers.${entry}.${header}`, value);
  }
  for (const [name, source] of Object.entries(asObject(asObject(asObject(tools).sql).sources))) {
    check(`tools.sql.sources.${name}.url`, asObject(source).url);
  }
  return problems;
}

/** `value` when it is a plain object, else an empty one. */
function asObject(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
