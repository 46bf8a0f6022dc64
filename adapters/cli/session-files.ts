/**
 * The interactive session's files: `/attach` and `/detach` (the input files given to the next runs,
 * and the current run's workspace in the history store), `/show` (the current code and its
 * workspace) and `/save <file>` (the current code to a file).
 */
import { writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { existsSync, statSync } from 'node:fs';
import type { App } from '../../src/app/app.js';
import type { Run } from '../../src/history/types.js';
import type { InputFile } from '../../src/sandbox/types.js';
import { InputError } from '../../src/config/errors.js';
import { prepareInputs } from '../../src/chat/input-note.js';
import { workspaceEntryText } from '../../src/text/workspace-entry.js';
import { formatBytes } from '../../src/text/bytes.js';
import { formatCode } from './render.js';
import { readInputFiles } from './input-files.js';

/** What the commands need of the session. */
export interface SessionFilesDeps {
  app: App;
  print(text: string): void;
  /** The current run, if any. */
  current(): Run | undefined;
  /** The current run. @throws {InputError} when there is none yet */
  requireRun(): Run;
}

/** The files of one session: those attached for the next runs, and the current run's. */
export class SessionFiles {
  /** The input files given to the next new runs (`/attach`), one per name. */
  attached: InputFile[] = [];

  constructor(private readonly deps: SessionFilesDeps) {}

  /** `/attach <file>`: given to the next runs, and added to the current run's workspace; bare: lists them. */
  async attach(path: string): Promise<void> {
    if (path) {
      const [file] = await readInputFiles([path], this.deps.app.config.sandbox.max_file_mb * 1024 * 1024, '/attach');
      this.attached = [...this.attached.filter((f) => f.name !== file!.name), file!];
      const current = this.deps.current();
      if (current) {
        const put = await this.deps.app.agent.addFiles(current, [file!]);
        const [name] = prepareInputs([file!]).files.map((f) => f.name);
        const replaced = put.replaced.find((f) => f.name === name);
        this.deps.print(
          replaced
            ? `${name} replaced the file of that name in the current run's workspace (${formatBytes(replaced.bytes)} → ${formatBytes(file!.content.length)})`
            : put.added.includes(name!)
              ? `${name} added to the current run's workspace (/improve or /execute finds it)`
              : `${name} is already in the current run's workspace, unchanged`,
        );
      }
    }
    if (this.attached.length === 0) return this.deps.print('No input files attached. /attach <file> gives the next runs one.');
    this.deps.print(`Input files for the next runs: ${this.attached.map((f) => `${f.name} (${f.content.length} bytes)`).join(', ')}`);
  }

  /** `/detach <name>`: no longer given, and removed from the current run's workspace; bare: none given. */
  async detach(name: string): Promise<void> {
    if (!name) {
      this.attached = [];
      return this.deps.print('No input files attached.');
    }
    const before = this.attached.length;
    this.attached = this.attached.filter((f) => f.name !== name && prepareInputs([f]).files[0]?.name !== name);
    const current = this.deps.current();
    const fromRun = current ? await this.deps.app.agent.removeFile(current, name) : false;
    if (!fromRun && this.attached.length === before) {
      throw new InputError(`there is no file ${name} in the current run's workspace nor among the attached files (/show lists them)`);
    }
    this.deps.print(
      [fromRun ? `${name} removed from the current run's workspace` : '', this.attached.length < before ? `${name} no longer given to the next runs` : '']
        .filter((t) => t !== '')
        .join('; '),
    );
  }

  /** `/show`: the current code and its workspace (or, before any run, what the first run is given). */
  async show(): Promise<void> {
    if (!this.deps.current() && this.attached.length > 0) {
      // nothing run yet: what the first run will be given
      this.deps.print('No current code yet: start with /run <requirement> or /generate <requirement>.');
      this.deps.print(`The next run is given (${this.attached.length} file${this.attached.length === 1 ? '' : 's'}):`);
      for (const f of this.attached) this.deps.print(`  ${f.name} (${formatBytes(f.content.length)})`);
      return;
    }
    const run = this.deps.requireRun();
    this.deps.print(formatCode(latestCode(run)));
    const { files } = await this.deps.app.agent.workspace(run);
    if (files.length === 0) return this.deps.print('Workspace: empty (/attach <file> adds one)');
    this.deps.print(`Workspace (${files.length} file${files.length === 1 ? '' : 's'}, what /improve and /execute find):`);
    for (const f of files) this.deps.print(`  ${workspaceEntryText({ name: f.name, bytes: f.bytes, origin: f.origin })}`);
  }

  /** `/save [-f] <file>`: the current code to a file (`-f` overwrites). */
  async save(arg: string): Promise<void> {
    const force = /^-f\s+/.test(arg);
    const file = arg.replace(/^-f\s+/, '').trim();
    if (!file) throw new InputError('/save needs a file name, e.g. /save program.py');
    const code = latestCode(this.deps.requireRun());
    const path = resolve(file);
    const folder = dirname(path);
    if (!existsSync(folder) || !statSync(folder).isDirectory()) {
      throw new InputError(`cannot save to ${path}: the folder ${folder} does not exist`);
    }
    try {
      await writeFile(path, `${code}\n`, { flag: force ? 'w' : 'wx' });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') throw new InputError(`${path} already exists: not overwritten (/save -f ${file} replaces it)`);
      if (code === 'EISDIR') throw new InputError(`cannot save to ${path}: it is a folder`);
      throw new InputError(`cannot save to ${path}: ${code ?? (err as Error).message}`);
    }
    this.deps.print(`Saved the current code to ${path}`);
  }
}

function latestCode(run: Run): string {
  const code = [...run.attempts].reverse().find((a) => a.code)?.code;
  if (!code) throw new InputError('the current run has no code');
  return code;
}
