/** The package's version (kept in src/app/version.ts: the metrics name it too). */
export { packageVersion } from '../../src/app/version.js';
