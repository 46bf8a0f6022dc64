/**
 * The shared chat keys of a platform's config section (`max_queue_per_channel`,
 * `max_input_file_mb`, `max_input_files`, `dedupe_ttl_s`, `history_limit`: src/config/chat-schema.ts's
 * `chatSchema`, where their defaults live) in the units the pipeline uses, mapped once for every
 * platform. A platform adds only its own keys (tokens, access lists, command names).
 */
import { chatSchema, type ChatKeys } from '../config/schema.js';
import type { InputLimits } from './input-downloads.js';

/** What every chat platform's section gives the pipeline. */
export interface ChatSettings {
  /** Jobs waiting or running in one channel, at most (`max_queue_per_channel`). */
  maxQueuePerChannel: number;
  /** How many files one request takes, and how large each may be (`max_input_files`, `max_input_file_mb`). */
  inputLimits: InputLimits;
  /** How long delivery ids are remembered for deduplication, in ms (`dedupe_ttl_s`). */
  dedupeTtlMs: number;
  /** Runs `/history` lists without a count (`history_limit`). */
  historyLimit: number;
}

/**
 * Maps a platform's section to the pipeline's settings; an absent section (a platform configured
 * by its environment alone) gets the schema's defaults.
 */
export function chatSettings(section: ChatKeys | undefined): ChatSettings {
  const keys = section ?? chatSchema.parse({});
  return {
    maxQueuePerChannel: keys.max_queue_per_channel,
    inputLimits: { maxFiles: keys.max_input_files, maxBytes: Math.round(keys.max_input_file_mb * 1024 * 1024) },
    dedupeTtlMs: keys.dedupe_ttl_s * 1000,
    historyLimit: keys.history_limit,
  };
}
