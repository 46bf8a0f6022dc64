/**
 * What the sandbox's Python really offers, found by a program run in the sandbox itself: which
 * modules of the default set import (and their versions), whether each operator pin is installed
 * at its version and imports, which fallback fonts matplotlib finds, and matplotlib's font list
 * (handed to every later run, so none scans the fonts again). Probed once per executor and kept
 * in a cache under a fingerprint of what could change it (Debian's package database, the
 * site dirs, the pins), machine-wide where it may write, so a `code-agent run` usually reads a file
 * instead of importing everything.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { userCacheDir } from '../config/cache-dir.js';
import { DEFAULT_MODULES, FONT_FALLBACK, parsePin, pythonDir, type SiteDirs } from './python-packages.js';

/** One module of the default set as found in the sandbox. */
export interface ModuleStatus {
  /** Import name (`sklearn`). */
  module: string;
  /** Distribution (`scikit-learn`). */
  dist: string;
  /** Its version when it imports. */
  version?: string;
  /** Why it does not import (`ModuleNotFoundError: …`). */
  error?: string;
}

/** One operator pin (`sandbox.python_packages`) as found in the sandbox. */
export interface PinStatus {
  pin: string;
  /** The distribution name of the pin. */
  name: string;
  /** The installed version, when the distribution is there. */
  version?: string;
  /** The top-level modules it provides (what was imported). */
  modules: string[];
  /** Why it does not count as there: missing, another version, or an import error. */
  error?: string;
}

/** What the sandbox's Python offers (`code-agent doctor` prints it; the LLM is told the names). */
export interface PythonEnvironment {
  /** The interpreter's version (`3.11.2`). */
  python: string;
  modules: ModuleStatus[];
  pins: PinStatus[];
  /** Each fallback font family and the file matplotlib found for it (none: not installed). */
  fonts: Array<{ family: string; file?: string }>;
  /** The host site dirs and whether setup finished each (python-packages.ts). */
  siteDirs: { wheels: string; wheelsReady: boolean; extra?: string; extraReady?: boolean };
  /** How long the probe took, in ms (0 when read from the cache). */
  probeMs: number;
  /** True when read from the probe cache. */
  cached: boolean;
  /** The probe cache file it was read from or written to (undefined: no cache folder was writable). */
  cacheFile?: string;
}

/** The probe's raw output besides the environment: matplotlib's font list. */
export interface ProbeOutput {
  python: string;
  modules: ModuleStatus[];
  pins: PinStatus[];
  fonts: Array<{ family: string; file?: string }>;
  /** `fontlist-v*.json` name and text, when matplotlib made one. */
  fontList?: { name: string; text: string };
}

/** The probe program (run in the sandbox; prints one JSON object). */
export function probeProgram(pins: readonly string[]): string {
  const input = JSON.stringify({
    modules: DEFAULT_MODULES.map(({ module, dist }) => ({ module, dist })),
    pins: pins.map((pin) => ({ pin, ...parsePin(pin) })),
    fonts: FONT_FALLBACK,
  });
  return `import importlib, importlib.metadata as md, json, os, sys, warnings
warnings.simplefilter("ignore")
spec = json.loads(${JSON.stringify(input)})
def err(e):
    return ("%s: %s" % (type(e).__name__, e))[:300]
out = {"python": sys.version.split()[0], "modules": [], "pins": [], "fonts": []}
for m in spec["modules"]:
    row = {"module": m["module"], "dist": m["dist"]}
    try:
        mod = importlib.import_module(m["module"])
        try:
            row["version"] = md.version(m["dist"])
        except Exception:
            row["version"] = str(getattr(mod, "__version__", "?"))
    except BaseException as e:
        row["error"] = err(e)
    out["modules"].append(row)
def top_level(d):
    text = d.read_text("top_level.txt")
    if text:
        return [t for t in text.split() if t and not t.startswith("_")]
    names = set()
    for f in d.files or []:
        parts = f.parts
        if len(parts) > 1 and parts[1] == "__init__.py" and not parts[0].endswith((".dist-info", ".data")):
            names.add(parts[0])
        elif len(parts) == 1 and parts[0].endswith(".py"):
            names.add(parts[0][:-3])
    return sorted(names)
for p in spec["pins"]:
    row = {"pin": p["pin"], "name": p["name"], "modules": []}
    try:
        d = md.distribution(p["name"])
        row["version"] = d.version
        row["modules"] = top_level(d)
        if d.version != p["version"]:
            row["error"] = "version %s is installed, not %s" % (d.version, p["version"])
        else:
            for name in row["modules"]:
                importlib.import_module(name)
    except md.PackageNotFoundError:
        row["error"] = "not installed"
    except BaseException as e:
        row["error"] = err(e)
    out["pins"].append(row)
try:
    import matplotlib, matplotlib.font_manager as fm
    for family in spec["fonts"]:
        try:
            out["fonts"].append({"family": family, "file": fm.findfont(fm.FontProperties(family=family), fallback_to_default=False)})
        except Exception:
            out["fonts"].append({"family": family})
    cache = matplotlib.get_cachedir()
    for name in sorted(os.listdir(cache)):
        if name.startswith("fontlist-") and name.endswith(".json"):
            with open(os.path.join(cache, name), encoding="utf-8") as f:
                out["fontList"] = {"name": name, "text": f.read()}
except BaseException as e:
    out["fontsError"] = err(e)
sys.stdout.write(json.dumps(out) + "\\n")
`;
}

/**
 * A fingerprint of what the probe's answer depends on: the interpreter, Debian's package database
 * (any apt install or removal changes it), /usr/local's Python folder, the site dirs (setup renames
 * a finished one into place) and the pins.
 */
export function environmentFingerprint(python: string, dirs: SiteDirs, pins: readonly string[]): string {
  const mtime = (p: string | undefined) => {
    try {
      return p ? String(statSync(p).mtimeMs) : '-';
    } catch {
      return '-';
    }
  };
  const parts = [python, mtime(python), mtime('/var/lib/dpkg/status'), mtime('/usr/local/lib/python3/dist-packages'), dirs.wheels, mtime(dirs.wheels), dirs.extra ?? '', mtime(dirs.extra), ...pins, probeProgram(pins)];
  return createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 16);
}

/**
 * Where the probe of a fingerprint is kept, in the order they are read: next to the site dirs
 * (`<python dir>/probes/`, machine-wide like the packages it describes, when this process may
 * write there), then the user cache (`<user cache>/sandbox/`).
 */
export function environmentCacheFiles(fingerprint: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const name = `python-env-${fingerprint}.json`;
  return [join(pythonDir(env), 'probes', name), join(userCacheDir(env), 'sandbox', name)];
}

/** The first cached probe output of `files` and the file it came from, or undefined (none, or unreadable). */
export function readCachedProbe(files: readonly string[]): { probe: ProbeOutput; file: string } | undefined {
  for (const file of files) {
    if (!existsSync(file)) continue;
    try {
      return { probe: parseProbe(readFileSync(file, 'utf8')), file };
    } catch {
      /* the next one */
    }
  }
  return undefined;
}

/**
 * Keeps a probe output in the first of `files` that can be written and returns that file (best
 * effort: undefined when none can be, and the next run probes again).
 */
export function writeCachedProbe(files: readonly string[], probe: ProbeOutput): string | undefined {
  for (const file of files) {
    try {
      mkdirSync(dirname(file), { recursive: true, mode: 0o755 });
      const partial = `${file}.${process.pid}.partial`;
      writeFileSync(partial, JSON.stringify(probe), { mode: 0o644 });
      renameSync(partial, file);
      return file;
    } catch {
      /* not writable here: the next one */
    }
  }
  return undefined;
}

/**
 * Parses the probe's stdout (its last line).
 * @throws {Error} when it is not the probe's JSON
 */
export function parseProbe(stdout: string): ProbeOutput {
  const line = stdout.trim().split('\n').at(-1) ?? '';
  const raw = JSON.parse(line) as Partial<ProbeOutput>;
  if (typeof raw.python !== 'string' || !Array.isArray(raw.modules) || !Array.isArray(raw.pins) || !Array.isArray(raw.fonts)) {
    throw new Error('the environment probe printed something else than its JSON');
  }
  return { python: raw.python, modules: raw.modules, pins: raw.pins, fonts: raw.fonts, fontList: raw.fontList };
}

/** The import names that work, sorted (stable across runs: the local model's cached prompt prefix). */
export function installedModules(env: Pick<PythonEnvironment, 'modules' | 'pins'>): string[] {
  const names = [...env.modules.filter((m) => m.version !== undefined).map((m) => m.module), ...env.pins.filter((p) => !p.error).flatMap((p) => p.modules)];
  return [...new Set(names)].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
}

/** The operator pins that are missing or do not import, as one line each (`name==1.0: not installed`). */
export function brokenPins(env: Pick<PythonEnvironment, 'pins'>): string[] {
  return env.pins.filter((p) => p.error).map((p) => `${p.pin.split(' ')[0]}: ${p.error}`);
}

/**
 * What the sandbox offers, in one sentence for users and the LLM: "Python's standard library and
 * these packages: bs4, docx, lxml, matplotlib, …".
 */
export function describeLibraries(env: Pick<PythonEnvironment, 'modules' | 'pins'>): string {
  const names = installedModules(env);
  return names.length === 0 ? "Python's standard library only" : `Python's standard library and these packages: ${names.join(', ')}`;
}

/** True when matplotlib found a CJK fallback font (figures can show Chinese, Japanese, Korean). */
export function hasCjkFont(env: Pick<PythonEnvironment, 'fonts'>): boolean {
  return env.fonts.some((f) => f.file !== undefined && /CJK|WenQuanYi/i.test(f.family));
}
