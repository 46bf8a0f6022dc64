#!/usr/bin/env node
/** Entry point of the `code-agent` binary: runs the CLI and sets the exit code. */
import { main } from './main.js';
import { EXIT } from './errors.js';

// a reader that stops early (`code-agent --help | head -3`) closes the pipe: that ends the command, quietly
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
    process.exit(process.exitCode ?? 0);
  });
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`code-agent: unexpected error: ${(err as Error).stack ?? String(err)}\n`);
    process.exitCode = EXIT.failed;
  },
);
