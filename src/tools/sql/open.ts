/** Opens a configured SQL source by its URL's scheme. */
import { isAbsolute, resolve } from 'node:path';
import { PostgresSource } from './postgres.js';
import { SqliteSource } from './sqlite.js';
import type { SqlSource, SqlSourceConfig } from './types.js';

/**
 * Opens `{name, url}`: `postgresql://…` / `postgres://…` (connects lazily), or a SQLite file as
 * `sqlite:///abs/path.db` (absolute) or `sqlite://relative/path.db` (from the working directory).
 * @throws {Error} for another scheme, a PostgreSQL URL that does not parse, or an empty SQLite
 *   path; the message names the source and the scheme, never the URL (it may hold a password)
 */
export function openSqlSource(config: SqlSourceConfig): SqlSource {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(config.url)?.[1]?.toLowerCase();
  if (scheme === 'postgresql' || scheme === 'postgres') {
    if (!URL.canParse(config.url)) {
      throw new Error(`tools.sql.sources.${config.name}.url: not a valid URL (expected postgresql://user:password@host:port/database; a password with reserved characters is written %-encoded)`);
    }
    return new PostgresSource(config.name, config.url, { functions: config.functions, securityDefiner: config.securityDefiner, privilegedRole: config.privilegedRole });
  }
  if (scheme === 'sqlite') {
    const path = decodeURIComponent(config.url.slice('sqlite:'.length).replace(/^\/\//, '').replace(/\?.*$/, ''));
    if (path === '') throw new Error(`tools.sql.sources.${config.name}.url: a SQLite URL needs a file path (sqlite:///abs/path.db)`);
    return isAbsolute(path) ? new SqliteSource(config.name, path) : new SqliteSource(config.name, resolve(path), path);
  }
  throw new Error(`tools.sql.sources.${config.name}.url: expected postgresql://… or sqlite:///path.db${scheme ? `, not ${scheme}:` : ''}`);
}
