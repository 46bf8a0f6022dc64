/**
 * How a platform spells `/show`'s arguments in what the answers tell people: most as typed words
 * (`/show r-12 remove data.csv`, Matrix `!show …`), Discord as its command's options
 * (`/show run:r-12 remove:data.csv`).
 */
import type { CommandNames } from '../incoming-port.js';

/** The spelling of `/show`'s three uses (`runId` may be a placeholder such as `<run id>`). */
export interface ShowSpelling {
  /** Shows one run. */
  one(runId: string): string;
  /** Removes a file of its workspace (`<name>` stands for the file). */
  removeFile(runId: string): string;
  /** Deletes the run. */
  deleteRun(runId: string): string;
}

/** The spelling with typed words: `<show> <id>`, `<show> <id> remove <name>`, `<show> <id> remove`. */
export function wordSpelling(names: Pick<CommandNames, 'show'>): ShowSpelling {
  return {
    one: (id) => `${names.show} ${id}`,
    removeFile: (id) => `${names.show} ${id} remove <name>`,
    deleteRun: (id) => `${names.show} ${id} remove`,
  };
}
