#!/usr/bin/env node
/** Entry point of the `code-agent` binary: runs the CLI and sets the exit code. */
import { main } from './main.js';
import { EXIT } from './errors.js';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`code-agent: unexpected error: ${(err as Error).stack ?? String(err)}\n`);
    process.exitCode = EXIT.failed;
  },
);
