/**
 * `code-agent doctor`: prints what isolation the sandbox has on this machine and why (namespaces,
 * a cgroup per run or rlimits only, the disk budget, the warm pool, prepared slots for cold starts),
 * what its Python offers (packages, the operator's pins, site dirs, fonts), and the tools (allowed
 * hosts, SQL sources and whether each answers), and whether the Matrix homeserver answers and takes
 * the token (when `matrix.homeserver_url` is set), and whose the Slack bot token is and which of
 * Slack's agent surface the app uses there (when `slack.bot_token` is set: doctor-slack.ts). Exit 0 when code is isolated and every SQL source
 * and the homeserver answer, 1 when not, 2 when the sandbox is unavailable or a pin of `sandbox.python_packages` is
 * missing (the message says why and how to fix it).
 */
import type { Config } from '../../src/config/schema.js';
import { executorFromConfig } from '../../src/sandbox/from-config.js';
import type { IsolationReport } from '../../src/sandbox/isolation.js';
import { SandboxUnavailableError } from '../../src/sandbox/types.js';
import { EXIT } from './errors.js';
import { formatPython, pinsOk } from './doctor-python.js';
import { toolboxFromConfig } from '../../src/tools/from-config.js';
import { formatTools, toolsReport } from '../../src/tools/doctor.js';
import { formatMatrix, matrixReport } from './doctor-matrix.js';
import { formatSlack, slackReport } from './doctor-slack.js';

/** The report as aligned lines, one per part. */
export function formatIsolation(r: IsolationReport): string {
  const onOff = (active: boolean) => (active ? 'on ' : 'off');
  return [
    'sandbox isolation:',
    `  namespaces  ${onOff(r.namespaces.active)}  ${r.namespaces.detail}`,
    `  cgroups     ${onOff(r.cgroups.active)}  ${r.cgroups.active ? `(${r.cgroups.mode}) ` : ''}${r.cgroups.detail}`,
    `  disk        ${onOff(r.disk.active)}  ${r.disk.detail}`,
    `  warm pool   ${onOff(r.warmPool.size > 0)}  ${r.warmPool.detail}`,
    `  cold start  ${onOff(r.preparedSlots.size > 0)}  ${r.preparedSlots.detail}`,
    '',
  ].join('\n');
}

/**
 * Sets the sandbox up as `config` says, prints the report (text, or one JSON object), and tears it down.
 * @returns the exit code
 */
export async function runDoctor(config: Config, opts: { json?: boolean }, out: NodeJS.WritableStream = process.stdout): Promise<number> {
  // everything a warning would say is in the report
  const executor = executorFromConfig(config.sandbox, { warn: () => {} });
  try {
    const report = await executor.isolation();
    const python = await executor.environment().catch((err: unknown) => ({ error: (err as Error).message }));
    const toolbox = await toolboxFromConfig(config.tools);
    const tools = await toolsReport(toolbox).finally(() => toolbox.close());
    const matrix = await matrixReport(config);
    const slack = await slackReport(config);
    if (opts.json) out.write(`${JSON.stringify({ ...report, python, tools, ...(matrix ? { matrix } : {}), ...(slack ? { slack } : {}) })}\n`);
    else out.write(formatIsolation(report) + ('error' in python ? `sandbox python: unavailable: ${python.error}\n` : formatPython(python)) + formatTools(tools) + formatMatrix(matrix) + formatSlack(slack));
    if ('error' in python || !pinsOk(python)) return EXIT.usage;
    return report.namespaces.active && tools.sql.every((s) => s.ok) && matrix?.ok !== false ? EXIT.success : EXIT.failed;
  } catch (err) {
    if (!(err instanceof SandboxUnavailableError)) throw err;
    out.write(opts.json ? `${JSON.stringify({ error: err.message })}\n` : `sandbox isolation: unavailable: ${err.message}\n`);
    return EXIT.usage;
  } finally {
    await executor.close();
  }
}
