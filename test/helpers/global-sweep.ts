/**
 * Vitest global setup: after every test file has run and its worker process has ended, removes
 * what a worker left on the host when it ended without its exit hook (sandbox work dirs with a
 * tmpfs still mounted, cgroups), with the same sweep a code-agent process runs at start.
 */
import { cgroupParentDirs, detectCgroups } from '../../src/sandbox/cgroup.js';
import { sweepLeftovers } from '../../src/sandbox/sweep.js';

export default function setup(): () => Promise<void> {
  return async () => {
    const left = await sweepLeftovers(cgroupParentDirs(detectCgroups()));
    const total = left.cgroups + left.workRoots + left.mounts;
    if (total > 0) process.stderr.write(`test teardown: removed what ended test workers left (${JSON.stringify(left)})\n`);
  };
}
