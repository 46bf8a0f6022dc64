/**
 * Matrix's side of the chat port (src/chat/port.ts): a run's thread is an `m.thread` rooted at the
 * message that asked for it (its event id is the thread's key: replies in it are matched by it);
 * messages are `m.notice`s in Matrix HTML (renderer.ts) posted and edited through the transport;
 * the request's files are downloaded from the media repository. The outside view of a run a person
 * asked for is the thread summary clients show under its root (the final message), so `ended` adds
 * nothing; a schedule's tick roots its thread with the bot's own root message, edited at the end.
 */
import type { ChatThread, MessageId, OutgoingPort } from '../../src/chat/port.js';
import type { IncomingFile, IncomingRequest } from '../../src/chat/incoming-port.js';
import { chatOf, newRunChat } from '../../src/chat/run-chat.js';
import { threadInputs, type InputDownloads, type InputLimits } from '../../src/chat/input-downloads.js';
import type { MatrixMessage } from './markup.js';
import { matrixAnswers, matrixRenderer, matrixThreadMarkup } from './renderer.js';
import { endedRootSpec, requestRootSpec, rootView, type RootSpec } from '../../src/chat/view/root-view.js';
import type { Run } from '../../src/history/types.js';
import { eventOf, placeOf, type MatrixPlace, type MatrixTransport } from './transport.js';

/** Where a job renders (in the thread of `place.threadRoot`, or replies in the room), and its files. */
interface ThreadSpec {
  place: MatrixPlace;
  /** The thread's key in the store's thread index (a new run links it); undefined: replies are matched already. */
  key: string | undefined;
  files: IncomingFile[];
  /** The event the turn took (marked read when it starts); none for a schedule's tick. */
  taken?: string;
  /** What the turn's end updates outside the thread (a tick's root: the bot's own message); default nothing. */
  ended?: ChatThread<MatrixMessage, MessageId>['ended'];
}

/** Matrix's {@link OutgoingPort}: threads, posts and edits through `transport`, files within `limits`. */
export function matrixOutgoing(transport: MatrixTransport, limits: InputLimits): OutgoingPort<MatrixMessage, MessageId> {
  // from the media repository, with the bot's token (transport.ts)
  const downloads: InputDownloads = { ...limits, fetch: (file, cap) => transport.download(file.url, cap.maxBytes, cap.tooLarge) };
  const thread = ({ place, ...spec }: ThreadSpec): ChatThread<MatrixMessage, MessageId> => {
    const roomId = place.roomId;
    return {
      ref: { channel: roomId, ...(place.threadRoot ? { thread: place.threadRoot } : {}) },
      key: spec.key,
      output: {
        post: async (msg) => {
          const id = await transport.post(place, msg);
          return id ? { channel: roomId, id } : undefined;
        },
        edit: (ref, msg) => transport.edit(place, ref.id, msg),
        signs: transport.signs(roomId, spec.taken),
      },
      markup: matrixThreadMarkup,
      inputs: () => threadInputs(spec.files, downloads, { post: (msg) => transport.post(place, msg), note: matrixThreadMarkup.note }),
      // the thread summary under a person's root shows the last message: nothing to update outside
      ended: spec.ended ?? (async () => undefined),
    };
  };
  const tell = async (request: IncomingRequest, text: string) => void (await transport.post(placeOf(request), matrixAnswers.text(text)));
  return {
    platform: 'matrix',
    async openThread(request) {
      if (request.scheduled) {
        // no message asked for it (a schedule's tick): the bot's own root message (composed once, src/chat/view/root-view.ts) roots the thread and says how it ended
        const roomId = request.where.channel;
        const rootMessage = (spec: RootSpec) => matrixRenderer.render(rootView(spec))[0]!;
        const root = await transport.post({ roomId }, rootMessage(requestRootSpec(request, { state: 'working' })));
        if (!root) return undefined;
        const ended = async (run: Run | undefined, failure: string | undefined) => {
          const spec = endedRootSpec(run, failure, request);
          if (spec) await transport.edit({ roomId }, root, rootMessage(spec));
        };
        return { thread: thread({ place: { roomId, threadRoot: root }, key: root, files: [], ended }), chat: newRunChat(request, root) };
      }
      // a thread cannot start inside another (https://spec.matrix.org/v1.11/client-server-api/#threading)
      if (request.where.thread) return void (await tell(request, `Start a run in the room's timeline, not inside a thread (a reply in a run's thread improves that run).`));
      const root = eventOf(request);
      const chat = newRunChat(request, root);
      return { thread: thread({ place: { roomId: request.where.channel, threadRoot: root }, key: root, files: request.files, taken: root }), chat };
    },
    // a reply in a run's thread, or on its message when the run was posted in reply (no thread)
    runThread: async (request, run) => {
      const root = (run && chatOf(run)?.thread.thread) ?? request.where.thread;
      return thread({ place: placeOf({ ...request, where: { ...request.where, thread: root } }), key: undefined, files: request.files, taken: eventOf(request) });
    },
    reopenThread: async (request, ref) => thread({ place: placeOf({ ...request, where: { channel: ref.channel, thread: ref.thread } }), key: undefined, files: [] }),
    tell,
    messageId: (ref) => ref,
    editMessage: (id, msg) => transport.edit({ roomId: id.channel }, id.id, msg),
  };
}
