/**
 * Matrix's side of the chat port (src/chat/port.ts): a run's thread is an `m.thread` rooted at the
 * message that asked for it (its event id is the thread's key: replies in it are matched by it);
 * messages are `m.notice`s in Matrix HTML (markup.ts) posted and edited through the transport;
 * the request's files are downloaded from the media repository. The outside view of a run is the
 * thread summary clients show under its root (the final message), so `ended` adds nothing.
 */
import type { ChatThread } from '../../src/chat/port.js';
import { prepareInputs } from '../../src/chat/input-note.js';
import type { InputFile } from '../../src/sandbox/types.js';
import { formatBytes } from '../../src/text/bytes.js';
import { line, lines, matrixMarkup, type MatrixMessage } from './markup.js';
import { describe, type MatrixTransport } from './transport.js';

/** A file sent in the room, as a job carries it (`size` in bytes, as its event declared). */
export interface RemoteFile {
  name: string;
  mxc: string;
  size: number;
}

/** Caps on the files a request brings. */
export interface FileLimits {
  maxFiles: number;
  /** Per file, in bytes. */
  maxBytes: number;
}

/** Where a job renders: the room, the thread's root event, and its files. */
export interface ThreadSpec {
  roomId: string;
  root: string;
  /** The thread's key in the store's thread index (a new run links it); undefined: replies are matched already. */
  key: string | undefined;
  files: RemoteFile[];
  limits: FileLimits;
}

/** The thread of a job (see the module comment). */
export function matrixThread(transport: MatrixTransport, spec: ThreadSpec): ChatThread<MatrixMessage, string> {
  const place = { roomId: spec.roomId, threadRoot: spec.root };
  return {
    ref: { channel: spec.roomId, thread: spec.root },
    key: spec.key,
    output: {
      post: (msg) => transport.post(place, msg),
      edit: (id, msg) => transport.edit(place, id, msg),
    },
    markup: matrixMarkup,
    async inputs() {
      const { files, skipped } = await download(transport, spec.files, spec.limits);
      if (skipped.length) await transport.post(place, lines([line(`⚠️ Not used: ${skipped.join('; ')}`)]));
      return files;
    },
    ended: async () => undefined,
  };
}

/** Downloads the files within the caps, named as the sandbox names them. Never throws. */
async function download(transport: MatrixTransport, remote: RemoteFile[], limits: FileLimits): Promise<{ files: InputFile[]; skipped: string[] }> {
  const files: InputFile[] = [];
  const skipped: string[] = [];
  const over = `larger than the ${formatBytes(limits.maxBytes)} limit`;
  for (const [i, file] of remote.entries()) {
    if (i >= limits.maxFiles) skipped.push(`${file.name}: more than ${limits.maxFiles} files`);
    else if (file.size > limits.maxBytes) skipped.push(`${file.name}: ${formatBytes(file.size)} is over the ${formatBytes(limits.maxBytes)} limit`);
    else {
      try {
        files.push({ name: file.name, content: await transport.download(file.mxc, limits.maxBytes, over) });
      } catch (err) {
        skipped.push(`${file.name}: ${describe(err)}`);
      }
    }
  }
  const prepared = prepareInputs(files);
  return { files: prepared.files, skipped: [...skipped, ...prepared.skipped] };
}
