/** fast-check arbitraries of untrusted program text, shared by the output-shaping properties. */
import fc from 'fast-check';
import type { ExecutionResult } from '../../src/sandbox/types.js';

/** Pieces that break naive shaping: fences, escapes, mentions, wide and right-to-left characters. */
const NASTY = [
  '`', '```', '````', '~~~', '&', '&amp;', '<', '>', '<!channel>', '<!here>', '<@U0123ABC>', '<#C1|general>',
  '@everyone', '@here', '<@123456789012345678>', '<@&123456789012345678>', '😀', '👩‍💻', '数', '\u200f', '\u202e',
  '\u200b', '\n', '\r\n', '\t', ' ', 'Traceback (most recent call last):\n  File "main.py", line 1\n', 'ValueError: ',
  '\ufffd', 'x',
];

/** Text a program might print: any mix of the pieces above and random strings, sometimes huge. */
export const programText: fc.Arbitrary<string> = fc
  .tuple(
    fc.array(fc.oneof(fc.constantFrom(...NASTY), fc.string({ maxLength: 30, unit: 'grapheme' })), { maxLength: 60 }),
    fc.oneof({ weight: 4, arbitrary: fc.constant(1) }, { weight: 1, arbitrary: fc.integer({ min: 2, max: 400 }) }),
  )
  .map(([parts, repeat]) => parts.join('').repeat(repeat));

/** Bytes that are not all valid UTF-8, decoded the way the sandbox decodes output. */
export const decodedBytes: fc.Arbitrary<string> = fc
  .uint8Array({ maxLength: 3000 })
  .map((b) => new TextDecoder('utf-8', { fatal: false }).decode(b));

/** Any untrusted text: program text or decoded random bytes. */
export const untrusted = fc.oneof({ weight: 3, arbitrary: programText }, { weight: 1, arbitrary: decodedBytes });

/** An execution result with untrusted streams. */
export const executionResult: fc.Arbitrary<ExecutionResult> = fc.record({
  success: fc.boolean(),
  stdout: untrusted,
  stderr: untrusted,
  exitCode: fc.oneof(fc.constant(null), fc.integer({ min: 0, max: 255 })),
  signal: fc.constantFrom(null, 'SIGKILL', 'SIGXCPU'),
  timedOut: fc.boolean(),
  limitHit: fc.constantFrom(null, 'wall_time', 'output', 'work_dir_files', 'memory'),
  durationMs: fc.nat(100_000),
  artifacts: fc.constant([]),
  checks: fc.option(
    fc.record(
      {
        results: fc.array(fc.record({ check: untrusted, passed: fc.boolean(), detail: fc.option(untrusted, { nil: undefined }) }), { maxLength: 4 }),
        error: untrusted,
      },
      { requiredKeys: ['results'] },
    ),
    { nil: undefined },
  ),
}, { requiredKeys: ['success', 'stdout', 'stderr', 'exitCode', 'signal', 'timedOut', 'limitHit', 'durationMs', 'artifacts'] }) as fc.Arbitrary<ExecutionResult>;

/** Number of ``` runs: even when every code block is closed. */
export function fenceCount(text: string): number {
  return (text.match(/```/g) ?? []).length;
}
