/**
 * A one-line download progress bar for a terminal stream (stderr, so `--json` output stays clean).
 */
import type { DownloadProgress } from './model-files.js';

const WIDTH = 30;
/** Bytes in a mebibyte: the bar counts MiB (and says so). */
const MIB = 1024 * 1024;

/** Renders one progress line, e.g. `[#########.....................]  30%  140.6/468.6 MiB`. */
export function formatProgress({ totalSize, downloadedSize }: DownloadProgress): string {
  const ratio = totalSize > 0 ? Math.min(1, downloadedSize / totalSize) : 0;
  const filled = Math.round(ratio * WIDTH);
  const pct = `${Math.floor(ratio * 100)}%`.padStart(4);
  return `[${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${pct}  ${(downloadedSize / MIB).toFixed(1)}/${(totalSize / MIB).toFixed(1)} MiB`;
}

/**
 * A progress callback that redraws one line on `stream` at most every `intervalMs`
 * (and always at 100%). On a non-TTY stream it prints a line per 10%.
 */
export function progressBar(
  stream: NodeJS.WritableStream & { isTTY?: boolean } = process.stderr,
  intervalMs = 200,
): (progress: DownloadProgress) => void {
  let last = 0;
  let lastTenth = -1;
  return (progress) => {
    const done = progress.totalSize > 0 && progress.downloadedSize >= progress.totalSize;
    if (stream.isTTY) {
      const now = Date.now();
      if (!done && now - last < intervalMs) return;
      last = now;
      stream.write(`\r${formatProgress(progress)}${done ? '\n' : ''}`);
      return;
    }
    const tenth = progress.totalSize > 0 ? Math.floor((progress.downloadedSize / progress.totalSize) * 10) : 0;
    if (tenth === lastTenth) return;
    lastTenth = tenth;
    stream.write(`${formatProgress(progress)}\n`);
  };
}
