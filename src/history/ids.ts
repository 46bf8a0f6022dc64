/** Identifiers of the history in paths. */

/** A conversation id made safe as one path segment (where outputs are kept: `<artifactRoot>/<segment>/<runId>/`). */
export function safeSegment(id: string): string {
  return id.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_') || '_';
}
