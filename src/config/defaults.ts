/**
 * Values the config schema validates against or defaults to, that the parts they configure use
 * too (the workspace bounds, the shape of an operator's Python pin): kept here so that the schema
 * imports nothing above the config.
 */

/** Most files in one run's workspace when the config does not say (`workspace.max_files`). */
export const WORKSPACE_MAX_FILES = 100;
/** Most bytes in one run's workspace when the config does not say (`workspace.max_bytes`): 64 MiB. */
export const WORKSPACE_MAX_BYTES = 64 * 1024 * 1024;
/** Most bytes in one conversation's workspaces when the config does not say (`workspace.max_conversation_bytes`): 512 MiB. */
export const WORKSPACE_MAX_CONVERSATION_BYTES = 512 * 1024 * 1024;

/**
 * One operator pin: `name==version`, optionally followed by ` --hash=sha256:<64 hex>` (repeatable),
 * as in a pip requirements file.
 */
export const PIN_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?==[A-Za-z0-9][A-Za-z0-9.+!_-]*(?: --hash=sha256:[0-9a-f]{64})*$/;

/** Bounds of one conversation's channel memory when the config does not say (`memory.*`; src/history/memory.ts). */
export const DEFAULT_MEMORY_LIMITS = {
  /** Most live entries (definitions and examples together). */
  maxEntries: 200,
  /** Most bytes of live entries together (their JSON): 256 KiB. */
  maxBytes: 256 * 1024,
  /** Longest definition, in characters. */
  maxDefinitionChars: 300,
  /** Largest example (request, summary and program as JSON), in bytes: 16 KiB. */
  maxExampleBytes: 16 * 1024,
} as const;

/** How much of a prompt memory may take when the config does not say: at most 3 definitions in 500 tokens; at most 2 examples in 1,500 tokens. */
export const DEFAULT_RECALL_BUDGET = { definitionTokens: 500, maxDefinitions: 3, exampleTokens: 1500, maxExamples: 2 } as const;

/**
 * Bounds of one conversation's team programs (src/history/programs.ts): most live programs (a
 * save past it is refused), most versions kept per program (the oldest is dropped when a new one
 * is saved past it), and the largest program's code in bytes.
 */
export const DEFAULT_PROGRAM_LIMITS = {
  /** Most live programs per conversation. */
  maxPrograms: 50,
  /** Most versions kept per program (older ones are dropped, newest kept). */
  maxVersions: 20,
  /** Largest code of one version, in bytes (UTF-8): 64 KiB. */
  maxCodeBytes: 64 * 1024,
  /** Removed programs kept per conversation for the audit (older ones are dropped). */
  maxRemoved: 100,
} as const;
