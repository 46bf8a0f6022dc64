// Types of scripts/synapse.mjs (a plain ES module, so setup can run it before the build).

/** The matrix-synapse release the requirements pin. */
export declare const SYNAPSE_VERSION: string;
/** The pinned requirements file, with hashes (absolute path). */
export declare const requirementsFile: string;
/** Where the virtualenvs live unless `CODE_AGENT_SYNAPSE_DIR` says otherwise. */
export declare const DEFAULT_SYNAPSE_DIR: string;
/** The virtualenv for the current requirements (it may not exist yet). */
export declare function synapseVenv(env?: NodeJS.ProcessEnv): string;
/** The virtualenv's python when setup finished installing Synapse into it, else undefined. */
export declare function synapsePython(env?: NodeJS.ProcessEnv): string | undefined;
/**
 * Makes the virtualenv unless a finished one is there.
 * @throws when the folder cannot be written, or venv or pip fails
 */
export declare function installSynapse(log: (line: string) => void, env?: NodeJS.ProcessEnv): { venv: string; installed: boolean };
