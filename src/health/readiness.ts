/**
 * Readiness: whether a process can do its work now. Each part it depends on (its store, its
 * queue, its LLM, its sandbox) is asked at once, each within a deadline; the answer names every
 * part and says why each that failed did (`/readyz`, docs/operations.md).
 */

/** The parts a process may depend on. */
export type PartName = 'store' | 'queue' | 'llm' | 'sandbox';

/** A check of one part: resolves when it answers, throws (or does not answer in time) when not. */
export type PartCheck = (signal: AbortSignal) => Promise<void>;

/** How one part answered. */
export interface PartState {
  ok: boolean;
  /** Why not, in one line (no credential: URLs are the parts' own redacted words). */
  error?: string;
  /** How long it took, in ms. */
  ms: number;
}

/** The answer of `/readyz`. */
export interface Readiness {
  ready: boolean;
  parts: Partial<Record<PartName, PartState>>;
}

/** Longest error kept per part, in characters. */
const ERROR_MAX_CHARS = 300;

/**
 * Asks every part at once, each at most `deadlineMs`.
 * @returns ready when every part answered; a part that threw or took longer is named with why
 */
export async function checkReadiness(parts: Partial<Record<PartName, PartCheck>>, deadlineMs: number): Promise<Readiness> {
  const names = Object.keys(parts) as PartName[];
  const states = await Promise.all(names.map((name) => checkPart(name, parts[name]!, deadlineMs)));
  const out: Readiness = { ready: states.every((s) => s.ok), parts: {} };
  names.forEach((name, i) => (out.parts[name] = states[i]));
  return out;
}

async function checkPart(name: PartName, check: PartCheck, deadlineMs: number): Promise<PartState> {
  const started = performance.now();
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new Error(`no answer within ${deadlineMs / 1000} s`));
    }, deadlineMs);
  });
  try {
    await Promise.race([check(controller.signal), late]);
    return { ok: true, ms: Math.round(performance.now() - started) };
  } catch (err) {
    const text = ((err as Error)?.message ?? String(err)).replace(/\s+/g, ' ').trim() || `${name} failed`;
    return { ok: false, error: text.length > ERROR_MAX_CHARS ? `${text.slice(0, ERROR_MAX_CHARS - 1)}…` : text, ms: Math.round(performance.now() - started) };
  } finally {
    clearTimeout(timer);
  }
}
