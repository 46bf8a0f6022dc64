/**
 * What the LLM and users are told the sandbox offers, from the probed environment
 * (sandbox/environment.ts) rather than a fixed list. The text only changes when the environment
 * does (names sorted), so a local model's cached prompt prefix stays valid across runs.
 */
import { describeLibraries, hasCjkFont, installedModules, type PythonEnvironment } from '../../sandbox/environment.js';

/** What the sandbox offers when it could not be probed (the packages every install has). */
export const FALLBACK_LIBRARIES = "Python's standard library, numpy, pandas, matplotlib, scipy and sympy";

/** How an operator adds a package (told with a missing module). */
export const ADD_PACKAGE_HINT = 'an operator can add a package with sandbox.python_packages in config.yaml and `npm run setup`';

/** The libraries, in words: the probed list, or {@link FALLBACK_LIBRARIES}. */
export function availableLibraries(env: PythonEnvironment | undefined): string {
  return env ? describeLibraries(env) : FALLBACK_LIBRARIES;
}

/**
 * The system prompt's sentence about packages (and what they can do here: plotly without image
 * export, fonts for non-Latin text).
 */
export function librariesSentence(env: PythonEnvironment | undefined): string {
  if (!env) return 'The standard library, numpy, pandas, matplotlib, scipy and sympy are available.';
  const names = installedModules(env);
  const notes = [
    `Installed: ${availableLibraries(env)}.`,
    ...(names.includes('plotly') ? ['plotly can only write HTML (fig.write_html("chart.html", include_plotlyjs="cdn")), not images: use matplotlib for PNG.'] : []),
    ...(hasCjkFont(env) ? ["matplotlib's default fonts show Chinese, Japanese, Korean, Cyrillic and Greek text: do not change font settings."] : []),
  ];
  return notes.join(' ');
}
