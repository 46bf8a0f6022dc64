/**
 * The Python part of `code-agent doctor`: what the sandbox's Python offers, as probed in the
 * sandbox (packages and versions, the operator's pins, site dirs, fonts).
 */
import { brokenPins, type PythonEnvironment } from '../../src/sandbox/environment.js';

/** The environment as aligned lines (after the isolation report). */
export function formatPython(env: PythonEnvironment): string {
  const found = env.modules.filter((m) => m.version !== undefined);
  const missing = env.modules.filter((m) => m.version === undefined);
  const ready = (ok: boolean | undefined) => (ok ? 'installed' : 'MISSING: run `npm run setup`');
  const lines = [
    `sandbox python ${env.python} (${env.cached ? 'from the cache' : `probed in ${env.probeMs} ms`}):`,
    `  packages    ${found.map((m) => `${m.module} ${m.version}`).join(', ') || 'none'}`,
    ...(missing.length > 0 ? [`  missing     ${missing.map((m) => `${m.module} (${m.error ?? 'does not import'})`).join('; ')}`] : []),
    `  wheels      ${env.siteDirs.wheels} (${ready(env.siteDirs.wheelsReady)})`,
  ];
  if (env.siteDirs.extra) {
    lines.push(`  own pins    ${env.siteDirs.extra} (${ready(env.siteDirs.extraReady)})`);
    for (const p of env.pins) lines.push(`    ${p.error ? 'FAILED' : 'ok    '}  ${p.pin.split(' ')[0]}${p.error ? `: ${p.error}` : ` (imports ${p.modules.join(', ')})`}`);
  } else {
    lines.push('  own pins    none (sandbox.python_packages)');
  }
  const fonts = env.fonts.map((f) => `${f.family}${f.file ? '' : ' (not installed)'}`).join(', ');
  lines.push(`  fonts       fallback ${fonts}`, '');
  return lines.join('\n');
}

/** True when every operator pin is installed and imports. */
export function pinsOk(env: PythonEnvironment): boolean {
  return brokenPins(env).length === 0;
}
