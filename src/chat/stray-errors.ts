/**
 * A long-running chat bot must not die of one stray promise rejection (a library's background
 * request, a post whose error nobody awaited): Node 20 ends the process on an unhandled rejection
 * by default. Runs already end with a final message through their own error handling; this is the
 * last net under everything else.
 */

/**
 * Logs unhandled rejections through `report` instead of crashing. Call once, after startup
 * succeeded (startup errors should still end the process with their message).
 */
export function keepRunningOnStrayErrors(report: (err: unknown) => void): void {
  process.on('unhandledRejection', (reason) => {
    try {
      report(reason);
    } catch {
      /* reporting must not throw either */
    }
  });
}
