/** A slow, streamed LLM reply for the streamed-code tests of the chat adapters. */
import type { FakeReply } from '../fakes/openai-server.js';

/** 24 lines of code, `print("line 1")` … `print("line 24")`. */
export const STREAMED_CODE = Array.from({ length: 24 }, (_, i) => `print("line ${i + 1}")`).join('\n');

/** `reply` streamed one line per chunk, 130 ms apart (about 3.5 s in all). */
export function slowLines(reply: string): FakeReply {
  return { content: reply, chunks: reply.split(/(?<=\n)/), chunkDelayMs: 130 };
}
