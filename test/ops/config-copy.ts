/** A copy of a test world's config with `ops` set (port 0: a free one), next to it. */
import { readFile, writeFile } from 'node:fs/promises';
import { parse, stringify } from 'yaml';

/** @returns the copy's path */
export async function configWithOps(configFile: string, ops: Record<string, unknown> = { port: 0 }): Promise<string> {
  const config = parse(await readFile(configFile, 'utf8')) as Record<string, unknown>;
  const copy = configFile.replace(/\.yaml$/, '-ops.yaml');
  await writeFile(copy, stringify({ ...config, ops }));
  return copy;
}
