/**
 * Failures that no change to the code can fix: the program needs something the sandbox does not
 * have (an input file that was never given, a package that is not installed, the network).
 * Retrying them only burns time; the run stops and tells the user what to do instead.
 */
import type { ExecutionResult } from '../../sandbox/types.js';
import { exceptionLine } from '../../text/exception-line.js';
import { ADD_PACKAGE_HINT, FALLBACK_LIBRARIES } from './environment-text.js';

/** Modules whose only purpose is the network: a program that needs one cannot work here. */
const NETWORK_MODULES = new Set([
  'requests', 'httpx', 'urllib3', 'aiohttp', 'websocket', 'websockets', 'boto3', 'botocore',
  'yfinance', 'tweepy', 'openai', 'selenium', 'scrapy', 'pymongo', 'psycopg2', 'redis',
]);

/** Error text that means the program tried to reach the network. */
const NETWORK_ERRORS = [
  /Temporary failure in name resolution/,
  /Name or service not known/,
  /Network is unreachable/,
  /No address associated with hostname/,
  /socket\.gaierror/,
  /urllib\.error\.URLError/,
  /ConnectionRefusedError/,
  /requests\.exceptions\.ConnectionError/,
  // requests is installed (a dependency of Debian's plotly), but the sandbox has no CA bundle: https fails first
  /Could not find a suitable TLS CA certificate bundle/,
];

/** Why a failure cannot be fixed by code, and what the user can do. */
export interface Unfixable {
  kind: 'missing_file' | 'missing_module' | 'network';
  /** The plain message for the user (and the run's `error`). */
  message: string;
}

/** The context a failure is judged in. */
export interface FailureContext {
  /** The requirement and any feedback, as the user wrote them. */
  request: string;
  /** Names of the input files the program was given. */
  inputFiles: readonly string[];
  /** Modules reported missing by earlier attempts of the run. */
  missingBefore: readonly string[];
  /** What the sandbox offers, in words (environment-text.ts). Default: the fixed list every install has. */
  libraries?: string;
}

/** True when the request asks the program to make the file itself (then reading it first is a bug to fix). */
function asksToWrite(request: string, name: string): boolean {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`\\b(?:create|write|save|generate|make|produce|export|output|dump|store)s?\\b[^.\\n]{0,60}${escaped}`, 'i').test(request);
}

/**
 * How libraries say a module they need is missing, besides Python's own `No module named 'x'`;
 * the first group is the module.
 */
const MISSING_DEPENDENCY = [
  /^(?:ModuleNotFoundError|ImportError): No module named '([^']+)'/,
  // pandas' optional dependencies: `Missing optional dependency 'openpyxl'.  Use pip or conda to install openpyxl.`
  /^ImportError: Missing optional dependency '([^']+)'/,
  // pandas' parquet: `Unable to find a usable engine; tried using: 'pyarrow', 'fastparquet'.`
  /^ImportError: Unable to find a usable engine; tried using: '([^']+)'/,
  // plotly image export, seaborn, matplotlib and others: `… requires the kaleido package`
  /^\w*(?:Error|Exception): .*\brequires the ([\w.-]+) package/,
  /^\w*(?:Error|Exception): .*\b(?:pip|conda) install (?:-U )?([\w.-]+)/,
];

/**
 * The module a failed program needs and does not have: `ModuleNotFoundError: No module named 'x.y'`
 * (top-level `x`), or a library's own wording of a missing dependency (see {@link MISSING_DEPENDENCY}).
 */
export function missingModule(result: ExecutionResult): string | undefined {
  const line = exceptionLine(result.stderr) ?? '';
  for (const pattern of MISSING_DEPENDENCY) {
    const match = pattern.exec(line);
    if (match?.[1]) return match[1].split('.')[0];
  }
  return undefined;
}

/**
 * Decides whether a failed execution is one that no code can fix.
 * - A missing input file: `FileNotFoundError` for a file the request names but nobody attached.
 * - A missing network module (`requests`…), or a second attempt that needs the same missing module
 *   (the first one is told what is available and may rewrite without it).
 * - Any attempt to reach the network (name resolution, refused or unreachable connections).
 * @returns why, or undefined when another attempt may help
 */
export function unfixableFailure(result: ExecutionResult, context: FailureContext): Unfixable | undefined {
  if (result.success || result.limitHit) return undefined;
  const text = `${exceptionLine(result.stderr) ?? ''}\n${result.stderr.slice(-4000)}`;

  const file = /FileNotFoundError: \[Errno 2\] No such file or directory: '([^']+)'/.exec(text)?.[1];
  if (file) {
    const name = file.split('/').at(-1)!;
    const given = context.inputFiles.includes(name);
    if (!given && name !== '' && context.request.includes(name) && !asksToWrite(context.request, name)) {
      return {
        kind: 'missing_file',
        message:
          `the program needs the file ${name}, which was not given: attach ${name} to your request ` +
          `(in a terminal: code-agent run --file ${name} "…") and ask again`,
      };
    }
  }

  const module = missingModule(result);
  if (module) {
    if (NETWORK_MODULES.has(module)) {
      return {
        kind: 'missing_module',
        message:
          `the program needs the module ${module}, which is not installed, and the sandbox has no network. ` +
          `Available: ${context.libraries ?? FALLBACK_LIBRARIES}. Attach the data as a file and ask for a program that reads it`,
      };
    }
    if (context.missingBefore.includes(module)) {
      return {
        kind: 'missing_module',
        message:
          `the program needs the module ${module}, which is not installed here (a program cannot install packages). ` +
          `Available: ${context.libraries ?? FALLBACK_LIBRARIES}. Ask for a version that uses those, or ${ADD_PACKAGE_HINT}`,
      };
    }
  }

  if (NETWORK_ERRORS.some((re) => re.test(text))) {
    return {
      kind: 'network',
      message:
        'the program tried to reach the network, and the sandbox has no network: ' +
        'attach the data as a file and ask for a program that reads it',
    };
  }
  return undefined;
}
