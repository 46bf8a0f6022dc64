/** The store's error. */

/** The store could not be read or written; `message` says which store and what to do. */
export class HistoryError extends Error {
  override name = 'HistoryError';
}
