/**
 * A person's view of a Matrix room's ephemeral events (typing notifications, read receipts), from
 * their own `/sync` long-polls (https://spec.matrix.org/v1.11/client-server-api/#typing-notifications),
 * for tests on a real Synapse.
 */

/** One ephemeral event seen, and when. */
export interface SeenEphemeral {
  type: string;
  content: Record<string, unknown>;
  at: number;
}

/** A running watch: what it saw so far, and its stop. */
export interface EphemeralWatch {
  seen: SeenEphemeral[];
  /** Whether `user` shows as typing, in order of the notifications seen. */
  typing(user: string): boolean[];
  /** Whether `user`'s read receipt on `eventId` was seen. */
  read(user: string, eventId: string): boolean;
  stop(): Promise<void>;
}

/** Starts watching `roomId` as the person with `accessToken` on the homeserver at `url`. */
export function watchEphemeral(url: string, accessToken: string, roomId: string): EphemeralWatch {
  const seen: SeenEphemeral[] = [];
  let stopped = false;
  const loop = (async () => {
    let since = '';
    while (!stopped) {
      const q = new URLSearchParams({ timeout: '500', ...(since ? { since } : {}) });
      const res = await fetch(`${url}/_matrix/client/v3/sync?${q}`, { headers: { authorization: `Bearer ${accessToken}` } }).catch(() => undefined);
      if (!res?.ok) {
        await new Promise((r) => setTimeout(r, 200));
        continue;
      }
      const body = (await res.json()) as { next_batch: string; rooms?: { join?: Record<string, { ephemeral?: { events?: { type: string; content: Record<string, unknown> }[] } }> } };
      since = body.next_batch;
      for (const e of body.rooms?.join?.[roomId]?.ephemeral?.events ?? []) seen.push({ ...e, at: Date.now() });
    }
  })();
  return {
    seen,
    typing: (user) => seen.filter((e) => e.type === 'm.typing').map((e) => ((e.content.user_ids as string[] | undefined) ?? []).includes(user)),
    read: (user, eventId) => seen.some((e) => e.type === 'm.receipt' && JSON.stringify(e.content[eventId] ?? {}).includes(user)),
    async stop() {
      stopped = true;
      await loop;
    },
  };
}
