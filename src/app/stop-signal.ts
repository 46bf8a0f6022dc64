/** How a long-running process (`code-agent slack|discord|matrix|worker`) waits to be told to stop. */

/** Resolves at the first SIGINT or SIGTERM (each listened to once). Never rejects. */
export function untilStopSignal(): Promise<void> {
  return new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}
