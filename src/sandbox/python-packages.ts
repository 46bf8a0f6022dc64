/**
 * The sandbox's Python packages: the default set for data work (Debian packages, plus pinned
 * wheels where Debian has none), the operator's own pins (`sandbox.python_packages`), and the
 * read-only folders (site dirs) the wheels are installed into by `npm run setup` and mounted from
 * in every run. Setup (scripts/setup.mjs), the executor and `code-agent doctor` all take the site
 * dirs from {@link pythonSiteDirs}, so they always agree.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** A module of the default set: what a program imports, and where it comes from. */
export interface DefaultModule {
  /** The import name (`sklearn`). */
  module: string;
  /** The distribution whose version is reported (`scikit-learn`). */
  dist: string;
  /** The Debian package that provides it, or undefined for a pinned wheel ({@link DEFAULT_WHEELS}). */
  debian?: string;
}

/** Every module of the default set, Debian's first. Setup installs them; the probe reports them. */
export const DEFAULT_MODULES: readonly DefaultModule[] = [
  { module: 'numpy', dist: 'numpy', debian: 'python3-numpy' },
  { module: 'pandas', dist: 'pandas', debian: 'python3-pandas' },
  { module: 'matplotlib', dist: 'matplotlib', debian: 'python3-matplotlib' },
  { module: 'scipy', dist: 'scipy', debian: 'python3-scipy' },
  { module: 'sympy', dist: 'sympy', debian: 'python3-sympy' },
  { module: 'openpyxl', dist: 'openpyxl', debian: 'python3-openpyxl' },
  { module: 'xlrd', dist: 'xlrd', debian: 'python3-xlrd' },
  { module: 'xlsxwriter', dist: 'XlsxWriter', debian: 'python3-xlsxwriter' },
  { module: 'seaborn', dist: 'seaborn', debian: 'python3-seaborn' },
  { module: 'sklearn', dist: 'scikit-learn', debian: 'python3-sklearn' },
  { module: 'statsmodels', dist: 'statsmodels', debian: 'python3-statsmodels' },
  { module: 'networkx', dist: 'networkx', debian: 'python3-networkx' },
  { module: 'pypdf', dist: 'pypdf', debian: 'python3-pypdf' },
  { module: 'docx', dist: 'python-docx', debian: 'python3-docx' },
  { module: 'bs4', dist: 'beautifulsoup4', debian: 'python3-bs4' },
  { module: 'lxml', dist: 'lxml', debian: 'python3-lxml' },
  { module: 'tabulate', dist: 'tabulate', debian: 'python3-tabulate' },
  { module: 'plotly', dist: 'plotly', debian: 'python3-plotly' },
  { module: 'PIL', dist: 'Pillow', debian: 'python3-pil' },
  { module: 'pyarrow', dist: 'pyarrow' },
];

/**
 * Wheels from PyPI for what Debian (bookworm) does not package, as pip requirement lines with the
 * sha256 of every accepted file (CPython 3.11, x86_64 and aarch64, both manylinux tags).
 * pyarrow 15.0.2: built against NumPy 1.x, so it works with Debian's numpy 1.24 and pandas 1.5
 * (parquet read and write are tested in the sandbox); 127 MB installed.
 */
export const DEFAULT_WHEELS: readonly string[] = [
  'pyarrow==15.0.2' +
    ' --hash=sha256:4e7d9cfb5a1e648e172428c7a42b744610956f3b70f524aa3a6c02a448ba853e' + // manylinux2014_x86_64
    ' --hash=sha256:90adb99e8ce5f36fbecbbc422e7dcbcbed07d985eed6062e459e23f9e71fd197' + // manylinux_2_28_x86_64
    ' --hash=sha256:3a4f240852b302a7af4646c8bfe9950c4691a419847001178662a98915fd7ee7' + // manylinux2014_aarch64
    ' --hash=sha256:2d4f905209de70c0eb5b2de6763104d5a9a37430f137678edfb9a675bac9cd98', // manylinux_2_28_aarch64
];

/**
 * Debian font packages for figures: WenQuanYi Micro Hei (5 MB: Chinese, Japanese kana, Korean
 * Hangul) next to DejaVu (Latin, Cyrillic, Greek, symbols). Noto CJK would be 91 MB.
 */
export const FONT_PACKAGES: readonly string[] = ['fonts-dejavu-core', 'fonts-wqy-microhei'];

/** The font families of {@link FONT_PACKAGES} (the others of {@link FONT_FALLBACK} are optional). */
export const SETUP_FONT_FAMILIES: readonly string[] = ['DejaVu Sans', 'WenQuanYi Micro Hei'];

/**
 * The font families matplotlib falls back through, glyph by glyph, in the sandbox (runner.py's
 * FONT_FALLBACK; one that is not installed is skipped).
 */
export const FONT_FALLBACK: readonly string[] = [...SETUP_FONT_FAMILIES, 'Noto Sans CJK SC', 'Noto Sans CJK JP'];

export { PIN_PATTERN } from '../config/defaults.js';

/** The distribution name and version of a pin (`Name==1.0 --hash=…` → `['Name', '1.0']`). */
export function parsePin(pin: string): { name: string; version: string } {
  const [name = '', rest = ''] = pin.split('==');
  return { name, version: rest.split(' ')[0] ?? '' };
}

/** Where the site dirs live unless `CODE_AGENT_PYTHON_DIR` says otherwise (machine-wide, like Debian's). */
export const DEFAULT_PYTHON_DIR = '/usr/local/lib/code-agent/python';

/** Where a site dir appears inside the sandbox: the default wheels, and the operator's packages. */
export const SANDBOX_SITE_DIRS = { wheels: '/opt/code-agent/site', extra: '/opt/code-agent/extra' } as const;

/** The host site dirs for a set of operator pins (absolute paths; they may not exist yet). */
export interface SiteDirs {
  /** The default wheels ({@link DEFAULT_WHEELS}). */
  wheels: string;
  /** The operator's pins, or undefined when there are none. */
  extra?: string;
}

/** The folder of the site dirs: `$CODE_AGENT_PYTHON_DIR`, else {@link DEFAULT_PYTHON_DIR}. */
export function pythonDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.CODE_AGENT_PYTHON_DIR?.trim() || DEFAULT_PYTHON_DIR;
}

const keyOf = (lines: readonly string[]) => createHash('sha256').update([...lines].sort().join('\n')).digest('hex').slice(0, 12);

/**
 * The site dirs: `<root>/wheels-<key>` and `<root>/extra-<key>`, the key a hash of the requirement
 * lines, so a changed pin gets a new folder and a run never sees a half-changed one.
 * `<root>` is `$CODE_AGENT_PYTHON_DIR`, else {@link DEFAULT_PYTHON_DIR}.
 */
export function pythonSiteDirs(pins: readonly string[], env: NodeJS.ProcessEnv = process.env): SiteDirs {
  const root = pythonDir(env);
  return {
    wheels: join(root, `wheels-${keyOf(DEFAULT_WHEELS)}`),
    ...(pins.length > 0 ? { extra: join(root, `extra-${keyOf(pins)}`) } : {}),
  };
}

/** Marker file setup writes last into a finished site dir. */
export const COMPLETE_MARKER = '.code-agent-complete';

/** True when setup finished installing into `dir`. */
export function siteDirReady(dir: string | undefined): dir is string {
  return dir !== undefined && existsSync(join(dir, COMPLETE_MARKER));
}
