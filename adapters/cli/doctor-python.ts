/**
 * The Python part of `code-agent doctor`: what the sandbox's Python offers, as probed in the
 * sandbox (packages and versions, the operator's pins, site dirs, fonts).
 */
import { brokenPins, type PythonEnvironment } from '../../src/sandbox/environment.js';
import { DEFAULT_WHEELS, parsePin, SANDBOX_SITE_DIRS, SETUP_FONT_FAMILIES } from '../../src/sandbox/python-packages.js';

/** Where the probe's answer comes from, and when it is probed again. */
function probeSource(env: PythonEnvironment): string {
  const where = env.cacheFile ?? 'no writable cache folder';
  const again = 'probed again when Debian packages, site dirs or pins change';
  return env.cached ? `from the cache ${where}; ${again}` : `probed in ${env.probeMs} ms, kept in ${where}; ${again}`;
}

/** `pyarrow 15.0.2, …`: the pinned PyPI packages of the default site dir. */
const PINNED_WHEELS = DEFAULT_WHEELS.map((w) => Object.values(parsePin(w)).join(' ')).join(', ');

/** The environment as aligned lines (after the isolation report). */
export function formatPython(env: PythonEnvironment): string {
  const found = env.modules.filter((m) => m.version !== undefined);
  const missing = env.modules.filter((m) => m.version === undefined);
  const ready = (ok: boolean | undefined) => (ok ? 'installed' : 'MISSING: run `npm run setup`');
  const lines = [
    `sandbox python ${env.python} (${probeSource(env)}):`,
    `  packages    ${found.map((m) => `${m.module} ${m.version}`).join(', ') || 'none'}`,
    ...(missing.length > 0 ? [`  missing     ${missing.map((m) => `${m.module} (${m.error ?? 'does not import'})`).join('; ')}`] : []),
    `  wheels      pinned PyPI packages (${PINNED_WHEELS}): ${env.siteDirs.wheels}, mounted read-only at ${SANDBOX_SITE_DIRS.wheels} (${ready(env.siteDirs.wheelsReady)})`,
  ];
  if (env.siteDirs.extra) {
    lines.push(`  own pins    ${env.siteDirs.extra}, mounted read-only at ${SANDBOX_SITE_DIRS.extra} (${ready(env.siteDirs.extraReady)})`);
    for (const p of env.pins) lines.push(`    ${p.error ? 'FAILED' : 'ok    '}  ${p.pin.split(' ')[0]}${p.error ? `: ${p.error}` : ` (imports ${p.modules.join(', ')})`}`);
  } else {
    lines.push('  own pins    none (sandbox.python_packages)');
  }
  const fontNote = (family: string) => (SETUP_FONT_FAMILIES.includes(family) ? ` (${ready(false)})` : ' (optional, not installed)');
  const fonts = env.fonts.map((f) => `${f.family}${f.file ? '' : fontNote(f.family)}`).join(', ');
  lines.push(`  fonts       fallback ${fonts}`, '');
  return lines.join('\n');
}

/** True when every operator pin is installed and imports. */
export function pinsOk(env: PythonEnvironment): boolean {
  return brokenPins(env).length === 0;
}
