/**
 * A capped collector for stdout and stderr: never buffers more than the cap (host memory
 * stays bounded whatever the program prints), keeps the two streams apart, and decodes
 * bytes that are not UTF-8 into U+FFFD instead of failing.
 */

import { completeUtf8Length } from '../text/utf8.js';

/** Which output stream a chunk came from. */
export type StreamName = 'stdout' | 'stderr';

/** Collects up to `capBytes` of output in total; calls `onExceeded` once when the cap is passed. */
export class CappedOutput {
  private readonly chunks: Record<StreamName, Buffer[]> = { stdout: [], stderr: [] };
  private total = 0;
  private exceededOn: StreamName | null = null;

  /**
   * @param capBytes total bytes kept over both streams
   * @param onExceeded called once, synchronously, when output passes the cap (kill the program there)
   */
  constructor(
    private readonly capBytes: number,
    private readonly onExceeded: () => void,
  ) {}

  /** True once the cap was passed. */
  get exceeded(): boolean {
    return this.exceededOn !== null;
  }

  /** Bytes kept so far over both streams. */
  get bytes(): number {
    return this.total;
  }

  /** Adds a chunk; anything beyond the cap is dropped. */
  push(stream: StreamName, chunk: Buffer): void {
    if (this.exceededOn !== null) return;
    const room = this.capBytes - this.total;
    if (chunk.length <= room) {
      this.chunks[stream].push(chunk);
      this.total += chunk.length;
      return;
    }
    if (room > 0) this.chunks[stream].push(Buffer.from(chunk.subarray(0, room)));
    this.total = this.capBytes;
    this.exceededOn = stream;
    this.onExceeded();
  }

  /**
   * The text of one stream; the stream that passed the cap ends with a truncation marker line,
   * after the last whole character (a character the cap cut in half is left out, not shown as U+FFFD).
   */
  text(stream: StreamName): string {
    let bytes = Buffer.concat(this.chunks[stream]);
    if (this.exceededOn === stream) bytes = bytes.subarray(0, completeUtf8Length(bytes));
    const decoded = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
    if (this.exceededOn !== stream) return decoded;
    const sep = decoded === '' || decoded.endsWith('\n') ? '' : '\n';
    return `${decoded}${sep}[output truncated: more than ${this.capBytes} bytes]\n`;
  }
}
