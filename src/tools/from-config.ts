/**
 * Builds the tools from the validated `tools` section: the HTTP tool, and the SQL tool with the
 * engine that runs its queries.
 */
import { ConfigError } from '../config/load.js';
import type { ToolsConfig } from '../config/tools-schema.js';
import { Toolbox } from './toolbox.js';

/**
 * @throws {ConfigError} when a tool cannot be set up from its config (an unreadable
 *   `tools.http.ca_file`, a source URL that does not parse)
 */
export async function toolboxFromConfig(config: ToolsConfig): Promise<Toolbox> {
  try {
    return new Toolbox(config);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
}
