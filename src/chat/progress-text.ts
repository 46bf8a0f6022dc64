/**
 * The progress line's words, once for every platform (plain text; each platform escapes it): the
 * turn's start, each step of the agent, and how the call ended. One exhaustive switch: a new
 * progress step fails the type check here until it has its words.
 */
import type { ProgressLine, TurnKind } from './port.js';
import type { Attempt } from '../history/types.js';

/** What made each attempt, in the words an attempt's title shows (`Attempt 2 · auto-fix`). */
export const TRIGGER_WORDS: Record<Attempt['trigger'], string> = {
  requirement: 'first version',
  error: 'auto-fix',
  feedback: 'from feedback',
  review: 'fix of a defect the review found',
  rerun: 're-run of the same code',
};

/** What the progress line says at the start of each kind of turn. */
const STARTING: Record<TurnKind, string> = {
  run: '⏳ Starting…',
  generate: '⏳ Writing code…',
  rerun: '🔁 Re-running the latest code…',
  improve: '💬 Improving with the feedback…',
  program: '▶️ Running the team program (no LLM call)…',
};

/** The progress line (see the module comment). */
export function progressText(line: ProgressLine): string {
  switch (line.step) {
    case 'start':
      return STARTING[line.turn];
    case 'checks':
      return '🧪 Deriving checks from the request…';
    case 'writing':
      return `⏳ Writing code (attempt ${line.attempt}/${line.lastAttempt})…`;
    case 'running':
      return `⚙️ Running attempt ${line.attempt}/${line.lastAttempt} in the sandbox…`;
    case 'finished': {
      const word = line.failed ? '❌ Finished with a failure' : line.run.status === 'unverified' ? '⚠️ Finished, not confirmed,' : '✅ Finished';
      return `${word} after ${line.seconds.toFixed(1)} s`;
    }
    case 'stopped':
      return '❌ Stopped by an error';
    default:
      return unknownStep(line);
  }
}

/** Compile-time proof that every progress step has its words. */
function unknownStep(line: never): never {
  throw new Error(`progress step without words: ${JSON.stringify(line)}`);
}
