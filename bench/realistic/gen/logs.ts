/**
 * Generated logs: a web server's access log in the combined format (Apache/nginx) and an
 * application log of `key=value` pairs.
 */
import { Rng, pad2 } from './rng.js';

/** One request of access.log. */
export interface AccessEntry {
  ip: string;
  /** Hour of the day (the log is in +0000). */
  hour: number;
  time: string;
  method: string;
  path: string;
  status: number;
  /** Response size in bytes; undefined where the log shows `-`. */
  bytes: number | undefined;
  referer: string;
}

const AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  'curl/8.5.0',
  'python-requests/2.31.0',
];

function accessEntries(): AccessEntry[] {
  const rng = new Rng(4040);
  // heavy downloaders make few requests; browsers make many small ones
  const ips = ['198.51.100.23', '198.51.100.47', '203.0.113.15', '203.0.113.62', '192.0.2.88', '192.0.2.31', '198.51.100.70', '203.0.113.94'];
  const ipWeights = [14, 12, 4, 10, 3, 9, 6, 5];
  const pages: readonly [string, number][] = [
    ['/', 6], ['/products/{n}', 8], ['/static/app.js', 7], ['/static/style.css', 7], ['/docs/api-guide', 3],
    ['/api/orders', 6], ['/api/orders/{n}', 5], ['/api/cart', 4], ['/api/users/{n}', 3], ['/login', 3],
    ['/downloads/catalog.pdf', 2], ['/wp-login.php', 1],
  ];
  const entries: AccessEntry[] = [];
  let seconds = 6 * 3600 + 120;
  for (let i = 0; i < 320; i++) {
    seconds += rng.int(20, 250);
    const hour = Math.floor(seconds / 3600);
    const [template] = rng.weighted(pages, pages.map((p) => p[1]));
    const path = template.replace('{n}', String(rng.int(1, 60)));
    const ip = rng.weighted(ips, ipWeights);
    let status = 200;
    let bytes: number | undefined;
    if (path === '/wp-login.php') status = 404;
    else if (path.startsWith('/static/') && rng.chance(0.5)) status = 304;
    else if (path.startsWith('/api/') && rng.chance(0.12)) status = rng.pick([401, 403, 404, 422]);
    else if (rng.chance(0.05)) status = rng.pick([404, 500, 502]);
    if (status === 304) bytes = undefined;
    else if (status >= 400) bytes = rng.int(150, 600); // error pages: sizes like 404 or 451 bytes
    else if (path === '/downloads/catalog.pdf') bytes = rng.int(2_000_000, 4_500_000);
    else if (path.startsWith('/static/')) bytes = rng.int(18_000, 95_000);
    else if (rng.chance(0.12)) bytes = rng.int(400, 499); // small JSON replies whose size looks like a status
    else bytes = rng.int(500, 14_000);
    // heavy downloaders: two addresses fetch the PDF more often
    const who = path === '/downloads/catalog.pdf' ? rng.weighted(['203.0.113.15', '192.0.2.88', ip], [4, 3, 1]) : ip;
    const referer = rng.chance(0.3) ? rng.pick(['https://shop.example.com/', 'https://shop.example.com/docs/api-guide', 'https://shop.example.com/api/docs']) : '-';
    const time = `${pad2(hour)}:${pad2(Math.floor(seconds / 60) % 60)}:${pad2(seconds % 60)}`;
    entries.push({ ip: who, hour, time, method: path.startsWith('/api/cart') && rng.chance(0.5) ? 'POST' : 'GET', path, status, bytes, referer });
  }
  return entries;
}

/** The requests of access.log, in time order (one day, 2024-06-03, +0000). */
export const ACCESS_ENTRIES: readonly AccessEntry[] = accessEntries();
/** access.log in the combined log format. */
export const ACCESS_LOG = `${ACCESS_ENTRIES.map(
  (e, i) =>
    `${e.ip} - - [03/Jun/2024:${e.time} +0000] "${e.method} ${e.path} HTTP/1.1" ${e.status} ${e.bytes ?? '-'} "${e.referer}" "${AGENTS[i % AGENTS.length]}"`,
).join('\n')}\n`;

/** One line of service.log. */
export interface KvEntry {
  ts: string;
  level: 'info' | 'warn' | 'error';
  svc: string;
  route: string;
  durMs: number;
  msg: string;
}

function kvEntries(): KvEntry[] {
  const rng = new Rng(9091);
  const services: readonly [string, string[]][] = [
    ['payments', ['/pay', '/refund']], ['search', ['/search', '/suggest']], ['auth', ['/login', '/token']], ['catalog', ['/item', '/list']],
  ];
  const out: KvEntry[] = [];
  let seconds = 8 * 3600;
  for (let i = 0; i < 240; i++) {
    seconds += rng.int(5, 90);
    const [svc, routes] = rng.weighted(services, [3, 5, 3, 4]);
    const errorRate = { payments: 0.1, search: 0.04, auth: 0.08, catalog: 0.03 }[svc]!;
    const level = rng.chance(errorRate) ? 'error' : rng.chance(0.08) ? 'warn' : 'info';
    const slow = rng.chance(0.06);
    const durMs = slow ? rng.int(1200, 4800) : rng.int(8, 990);
    const msg =
      level === 'error'
        ? rng.pick(['upstream timeout', 'card declined', 'db connection reset', 'invalid token'])
        : level === 'warn'
          ? rng.pick(['slow response', 'retrying'])
          : // search and catalog say "error" in ordinary messages
            svc === 'search' || svc === 'catalog'
            ? rng.pick(['ok', 'ok', 'no errors', 'recovered from error', 'cache hit'])
            : rng.pick(['ok', 'ok', 'cache hit']);
    const ts = `2024-06-03T${pad2(Math.floor(seconds / 3600))}:${pad2(Math.floor(seconds / 60) % 60)}:${pad2(seconds % 60)}Z`;
    out.push({ ts, level, svc, route: rng.pick(routes), durMs, msg });
  }
  return out;
}

/** The lines of service.log, in time order. */
export const KV_ENTRIES: readonly KvEntry[] = kvEntries();
/** service.log: `ts=… level=… svc=… route=… dur_ms=… msg="…"`. */
export const KV_LOG = `${KV_ENTRIES.map((e) => `ts=${e.ts} level=${e.level} svc=${e.svc} route=${e.route} dur_ms=${e.durMs} msg="${e.msg}"`).join('\n')}\n`;
