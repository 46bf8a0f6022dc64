/** The executor a `sandbox` config section describes (shared by the app and `code-agent doctor`). */
import { BubblewrapExecutor } from './executor.js';
import { limitsFromConfig, type SandboxLimitConfig } from './limits.js';

/** The `sandbox` section of the config, as far as the executor goes. */
export interface SandboxConfig extends SandboxLimitConfig {
  python: string;
  allow_unisolated: boolean;
  warm_pool: number;
  warm_pool_max_age_s: number;
  cgroups: 'auto' | 'off';
  python_packages: string[];
}

/** The executor the `sandbox` config section describes (the app and `code-agent doctor` share it). */
export function executorFromConfig(sandbox: SandboxConfig, logger?: { warn(msg: string): void }): BubblewrapExecutor {
  return new BubblewrapExecutor({
    python: sandbox.python,
    limits: limitsFromConfig(sandbox),
    allowUnisolated: sandbox.allow_unisolated,
    warmPool: sandbox.warm_pool,
    warmPoolMaxAgeS: sandbox.warm_pool_max_age_s,
    cgroups: sandbox.cgroups,
    pythonPackages: sandbox.python_packages,
    logger,
  });
}
