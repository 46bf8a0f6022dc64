/** Identifiers of runs and their use in paths. */
import { randomBytes } from 'node:crypto';

/** A time-sortable run id, e.g. `mfx3k2a1-9f2c1e`. */
export function newRunId(): string {
  return `${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
}

/** A conversation id made safe as one path segment (kept with the history, which deletes outputs too). */
export { safeSegment } from '../../history/ids.js';
