/**
 * Requests over log files: a web server's access log (combined format) and an application log of
 * `key=value` pairs. Expected values are computed here from the generated entries (`../gen/logs.ts`).
 */
import { ACCESS_ENTRIES, ACCESS_LOG, KV_ENTRIES, KV_LOG } from '../gen/logs.js';
import { biggestFirst } from '../gen/rng.js';
import { hourCounts } from '../parse.js';
import { expectEach, expectNumber, expectNumbersInOrder, expectRows } from '../stdout-checks.js';
import { bad, file, ok, type RealisticRequest, type Verdict } from '../types.js';

const accessLog = () => [file('access.log', ACCESS_LOG)];
const serviceLog = () => [file('service.log', KV_LOG)];

const count = <T>(items: readonly T[], keep: (t: T) => boolean) => items.filter(keep).length;
function tally<T>(items: readonly T[], key: (t: T) => string, value: (t: T) => number = () => 1): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of items) out.set(key(t), (out.get(key(t)) ?? 0) + value(t));
  return out;
}

/** A 4xx-looking number between spaces anywhere on the line: the status, or a size of 400–499 bytes. */
const NAIVE_4XX = count(ACCESS_ENTRIES, (e) => (e.status >= 400 && e.status < 500) || (e.bytes !== undefined && e.bytes >= 400 && e.bytes < 500));
const REAL_4XX = count(ACCESS_ENTRIES, (e) => e.status >= 400 && e.status < 500);
const ONLY_404 = count(ACCESS_ENTRIES, (e) => e.status === 404);

/** Whether the printed (hour, count) pairs for the expected hours are exactly the expected ones. */
function expectHours(stdout: string, expected: ReadonlyMap<number, number>): Verdict {
  const got = hourCounts(stdout).filter(([h]) => expected.has(h));
  const shown = got.map(([h, n]) => `${h}→${n}`).join(' ');
  const want = [...expected].map(([h, n]) => `${h}→${n}`).join(' ');
  return shown === want ? ok(want) : bad(`got ${shown || 'no hour/count lines'}, expected ${want}`);
}

const API_PER_HOUR = new Map([...tally(ACCESS_ENTRIES.filter((e) => e.path.startsWith('/api/')), (e) => String(e.hour))].map(([h, n]) => [Number(h), n]));
const BYTES_BY_IP = biggestFirst(tally(ACCESS_ENTRIES, (e) => e.ip, (e) => e.bytes ?? 0));
const REQUESTS_BY_IP = biggestFirst(tally(ACCESS_ENTRIES, (e) => e.ip));

const ERRORS_BY_SERVICE = tally(KV_ENTRIES.filter((e) => e.level === 'error'), (e) => e.svc);
const SLOWEST = [...KV_ENTRIES].sort((a, b) => b.durMs - a.durMs).slice(0, 3);
const SLOWEST_AS_TEXT = [...KV_ENTRIES].sort((a, b) => String(b.durMs).localeCompare(String(a.durMs)))[0]!;

/** The log requests, in a fixed order. */
export const LOG_FILE_REQUESTS: RealisticRequest[] = [
  {
    id: 'access-4xx-count',
    kind: 'files',
    requirement: "access.log is yesterday's nginx access log. How many requests returned a 4xx status?",
    inputFiles: accessLog(),
    // status field (after the quoted request) in 400–499; a regex for ` 4\d\d ` anywhere also
    // matches response sizes of 400–499 bytes; 404 alone is the other mistake.
    check: async ({ stdout }) => expectNumber(stdout, String(REAL_4XX), [String(NAIVE_4XX), String(ONLY_404)]),
  },
  {
    id: 'access-api-per-hour',
    kind: 'files',
    requirement: 'From access.log: requests per hour for /api paths only. Print each hour and its count in time order.',
    inputFiles: accessLog(),
    // request path starting with /api/, by the hour of its timestamp; "/api" anywhere on the line
    // also counts /docs/api-guide and referers like https://shop.example.com/api/docs.
    check: async ({ stdout }) => expectHours(stdout, API_PER_HOUR),
  },
  {
    id: 'access-top-ips-bytes',
    kind: 'files',
    requirement: 'Using access.log, what are the top 3 client IPs by total bytes sent? Show IP and bytes, biggest first.',
    inputFiles: accessLog(),
    // sum of the size field per client address (`-` is 0); by number of requests the top 3 differ.
    check: async ({ stdout }) => {
      if (REQUESTS_BY_IP.slice(0, 3).map((x) => x[0]).join() === BYTES_BY_IP.slice(0, 3).map((x) => x[0]).join()) return bad('data: byte and request rankings agree');
      return expectRows(stdout, BYTES_BY_IP.slice(0, 3).map(([name, value]) => ({ name, value, tol: 0.5 })), [BYTES_BY_IP[3]![0]]);
    },
  },
  {
    id: 'kv-errors-per-service',
    kind: 'files',
    requirement: 'service.log is our app log (key=value format). How many errors did each service log?',
    inputFiles: serviceLog(),
    // lines with level=error, by svc; "error" anywhere on the line also counts messages such as
    // msg="no errors" and msg="recovered from error".
    check: async ({ stdout }) => expectEach(stdout, [...ERRORS_BY_SERVICE].map(([name, value]) => ({ name, value, tol: 0 }))),
  },
  {
    id: 'kv-slowest-requests',
    kind: 'files',
    requirement: 'What were the 3 slowest requests in service.log? Show the time, the service and dur_ms, slowest first.',
    inputFiles: serviceLog(),
    // the 3 largest dur_ms as numbers; sorted as text, 3-digit values beat 4-digit ones.
    check: async ({ stdout }) => {
      const verdict = expectNumbersInOrder(stdout, SLOWEST.map((e) => String(e.durMs)));
      if (!verdict.pass) return verdict;
      return expectNumber(stdout, String(SLOWEST[0]!.durMs), [String(SLOWEST_AS_TEXT.durMs)]);
    },
  },
];
