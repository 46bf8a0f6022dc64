/**
 * A Python traceback as the model needs it to fix its program: the frames of the program itself
 * (its file name, the line, the source shown under it) and the exception, without the frames of the
 * libraries it called. A pandas error is 10–30 frames deep inside pandas (`File
 * "/usr/lib/python3/dist-packages/pandas/…"`, the library's source line and its `^^^^` marks):
 * hundreds of tokens that name no line the model wrote and that it cannot change. Each run of such
 * frames becomes one line saying how many were left out and of which packages.
 */

import { SANDBOX_WORK_DIR } from '../../sandbox/bwrap-args.js';

/** A frame's header line: `  File "main.py", line 5, in <module>` (any indentation). */
const FRAME = /^(\s*)File "([^"]*)", line \d+/;

/**
 * Whether a frame's file is the program's own: `main.py` (as the sandbox's runner names it), a
 * relative name without a folder, or a file in the sandbox's work dir (a module the program wrote
 * or was given: `/work/helper.py`). Library paths are elsewhere (`/usr/lib/python3/…`), relative
 * to their package (`pandas/_libs/index.pyx`) or pseudo-files (`<frozen runpy>`, `<string>`).
 */
function programFile(file: string): boolean {
  if (file.startsWith(`${SANDBOX_WORK_DIR}/`)) return true;
  return file !== '' && !file.startsWith('/') && !file.startsWith('<') && !file.includes('/');
}

/** The package a library frame belongs to (`pandas` for `…/dist-packages/pandas/io/…` and `pandas/_libs/index.pyx`), else the file's name. */
function packageOf(file: string): string {
  const m = /\/(?:dist|site)-packages\/([^/]+)/.exec(file) ?? /\/python3(?:\.\d+)?\/([^/]+)/.exec(file);
  // compiled modules name their source relative to the package (`pandas/_libs/index.pyx`)
  const name = m?.[1] ?? (!file.startsWith('/') && file.includes('/') ? file.split('/')[0]! : file.split('/').at(-1) ?? file);
  return name.replace(/\.py$/, '').replace(/^</, '').replace(/>$/, '');
}

/**
 * The stderr with every run of library frames of its tracebacks replaced by one line
 * (`  … 9 frames in pandas left out`); everything else (the program's frames, the exceptions,
 * output that is no traceback) is kept as it was. Text without a library frame comes back unchanged.
 */
export function withoutLibraryFrames(stderr: string): string {
  const lines = stderr.split('\n');
  const out: string[] = [];
  let run: { indent: string; frames: number; packages: string[] } | undefined;
  const flush = () => {
    if (!run) return;
    const plural = run.frames === 1 ? 'frame' : 'frames';
    out.push(`${run.indent}… ${run.frames} ${plural} in ${run.packages.join(', ')} left out`);
    run = undefined;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const frame = FRAME.exec(line);
    if (!frame) {
      flush();
      out.push(line);
      continue;
    }
    const indent = frame[1]!;
    // the frame's body: the lines indented deeper than its header (source line, ^^^^ marks)
    let end = i + 1;
    while (end < lines.length && lines[end]!.startsWith(`${indent} `) && !FRAME.test(lines[end]!)) end++;
    if (programFile(frame[2]!)) {
      flush();
      out.push(...lines.slice(i, end));
    } else {
      run ??= { indent, frames: 0, packages: [] };
      run.frames++;
      const name = packageOf(frame[2]!);
      if (!run.packages.includes(name)) run.packages.push(name);
    }
    i = end - 1;
  }
  flush();
  return out.join('\n');
}
