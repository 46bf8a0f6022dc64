/** The text that tells the model a source's tables and columns, bounded in size. */

/** One column of the schema: its table (schema-qualified when not the default), name and type. */
export interface SchemaColumn {
  table: string;
  column: string;
  type: string;
}

/** Default bound of a description, in characters. */
export const DESCRIBE_MAX_CHARS = 4000;

/**
 * Formats a source's tables, one line each: `  orders(id integer, total numeric, …)`, after a
 * heading line `shop (PostgreSQL), 3 tables:`. Lines past `maxChars` are left out and counted
 * (`  … 12 more tables`); a table's columns past 40 are counted the same way.
 * @param columns in table order, then column order
 */
export function formatDescription(name: string, engine: string, columns: readonly SchemaColumn[], maxChars = DESCRIBE_MAX_CHARS): string {
  const tables = new Map<string, string[]>();
  for (const c of columns) {
    const list = tables.get(c.table) ?? [];
    list.push(`${c.column} ${c.type}`);
    tables.set(c.table, list);
  }
  const heading = `${name} (${engine}), ${tables.size} table${tables.size === 1 ? '' : 's'}${tables.size ? ':' : ''}`;
  const lines = [heading];
  let size = heading.length;
  let left = tables.size;
  for (const [table, cols] of tables) {
    const shown = cols.length > 40 ? [...cols.slice(0, 40), `… ${cols.length - 40} more columns`] : cols;
    const line = `  ${table}(${shown.join(', ')})`;
    const tail = `  … ${left} more table${left === 1 ? '' : 's'}`;
    if (size + 1 + line.length + 1 + tail.length > maxChars) {
      lines.push(tail);
      return lines.join('\n');
    }
    lines.push(line);
    size += 1 + line.length;
    left--;
  }
  return lines.join('\n');
}
