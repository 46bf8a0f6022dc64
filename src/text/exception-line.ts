/**
 * The exception a Python program ended with, read from its stderr: the `Type: message` line of
 * the last traceback. Text only (used by the agent's failure reports and the data layer's feedback).
 */

/**
 * A line naming an exception without a traceback header before it (SyntaxError is printed so):
 * every built-in name (`Exception`, `Warning`, `KeyboardInterrupt`, `ExceptionGroup`…) and the
 * usual suffixes of custom ones, optionally dotted (`json.decoder.JSONDecodeError`).
 */
const EXCEPTION_LINE =
  /^(?:[A-Za-z_]\w*\.)*(?:[A-Z]\w*)?(?:Error|Exception|Exit|Interrupt|Warning|Iteration|ExceptionGroup)(?:: .*)?$/;
/** After a traceback's frames: `Name`, `Name: message`, `module.Name: message` (any custom class). */
const AFTER_TRACEBACK = /^(?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*(?:: .*)?$/;
const TRACEBACK_HEAD = /^[ |+]*(Exception Group )?Traceback \(most recent call last\):\s*$/;

/**
 * The `Type: message` line of the last Python traceback in stderr (e.g. `Exception: boom`,
 * `Oops: bad row`, `json.decoder.JSONDecodeError: …`), if any. Only the first line of a
 * multi-line message is returned; it is not shortened here (see {@link summarizeFailure}).
 */
export function exceptionLine(stderr: string): string | undefined {
  const lines = stderr.trimEnd().split('\n');
  let head = -1;
  let group = false;
  for (let i = lines.length - 1; i >= 0; i--) {
    const m = TRACEBACK_HEAD.exec(lines[i]!);
    if (m) {
      head = i;
      group = m[1] !== undefined;
      break;
    }
  }
  if (head >= 0) {
    // the frames are indented; the first line that is not names the exception
    // (an exception group's traceback has every line behind a `  | ` border)
    for (let i = head + 1; i < lines.length; i++) {
      const line = group ? lines[i]!.replace(/^\s*\| ?/, '') : lines[i]!;
      if (/^\s/.test(line) || line === '') continue;
      if (AFTER_TRACEBACK.test(line.trimEnd())) return line.trimEnd();
      break;
    }
  }
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!.trim();
    if (EXCEPTION_LINE.test(line)) return line;
  }
  return undefined;
}
