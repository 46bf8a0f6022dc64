/**
 * The `tools` section of `config.yaml`: what programs may reach through the host-side broker.
 *
 *     tools:
 *       http:
 *         allow: ["api.example.com", "*.corp.example.com", "127.0.0.1:8080"]
 *         headers: { "api.example.com": { Authorization: "Bearer ${EXAMPLE_TOKEN}" } }
 *         methods: [GET, HEAD]
 *         conversations: all            # or a list of channel ids; default: the terminal only
 *       sql:
 *         sources:
 *           shop: { url: "postgresql://reader:${SHOP_DB_PASSWORD}@db:5432/shop", conversations: [C0123] }
 *
 * Every key is validated; an error names its path (`tools.http.allow.1: "a b": expected host…`).
 */
import { z } from 'zod';
import { parseHostRule } from './host-rule.js';

const positive = (def: number, integer = false) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v)) ? Number(v) : v),
    integer ? z.number().int().positive() : z.number().positive(),
  ).default(def);

/** `all`, or a list of conversation ids (`C0123`, `slack:T1:C0123`, `discord:G:123`); unset: the terminal only. */
export const conversationsSchema = z.unknown().transform((value, ctx): 'all' | string[] | undefined => {
  if (value === undefined || value === null) return undefined;
  if (value === 'all') return 'all';
  if (!Array.isArray(value)) {
    ctx.addIssue({ code: 'custom', message: 'expected "all" or a list of conversation (channel) ids' });
    return z.NEVER;
  }
  return value.map((id: unknown, i) => {
    if (typeof id === 'string' && id.trim() !== '') return id.trim();
    if (typeof id === 'number' && Number.isSafeInteger(id)) return String(id);
    // a Discord id written without quotes is a number YAML cannot hold exactly
    const message = typeof id === 'number' ? 'a long id must be quoted ("123456789012345678"): as a number it loses digits' : 'expected a conversation (channel) id';
    ctx.addIssue({ code: 'custom', path: [i], message });
    return '';
  });
}).optional();

const hostEntry = z.string().superRefine((v, ctx) => {
  try {
    parseHostRule(v);
  } catch (err) {
    ctx.addIssue({ code: 'custom', message: (err as Error).message });
  }
});

/** RFC 9110 token characters: a header name. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Headers the broker sets itself: a configured value for them would break the exchange. */
const RESERVED_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'upgrade', 'te', 'trailer', 'keep-alive']);

const headerSet = z.record(z.string(), z.string()).superRefine((headers, ctx) => {
  for (const [name, value] of Object.entries(headers)) {
    if (!HEADER_NAME.test(name)) ctx.addIssue({ code: 'custom', path: [name], message: 'expected a header name (letters, digits, -)' });
    else if (RESERVED_HEADERS.has(name.toLowerCase())) ctx.addIssue({ code: 'custom', path: [name], message: 'the broker sets this header itself' });
    if (/[\r\n\0]/.test(value)) ctx.addIssue({ code: 'custom', path: [name], message: 'a header value cannot hold a line break' });
  }
});

/** Methods a program may use; GET and HEAD unless the operator allows more. */
export const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

export const httpToolSchema = z
  .object({
    allow: z.array(hostEntry).default([]),
    /** Per allowlist entry: headers the host side adds (credentials; never seen by the program). */
    headers: z.record(hostEntry, headerSet).default({}),
    methods: z
      .array(z.string().trim().toUpperCase().pipe(z.enum(HTTP_METHODS)))
      .min(1)
      .default(['GET', 'HEAD']),
    conversations: conversationsSchema,
    /** Largest response body passed to the program, in MB. */
    max_response_mb: positive(10),
    /** Longest one request may take (connect to last byte), in s. */
    timeout_s: positive(30),
    /** Most requests one execution may make. */
    max_calls: positive(100, true),
    /** Most response bytes one execution may receive in all, in MB. */
    max_total_mb: positive(100),
    /** A PEM file of CA certificates trusted for https to allowed hosts, besides the system's (an internal CA). */
    ca_file: z.string().trim().min(1).optional(),
  })
  .strict()
  .superRefine((http, ctx) => {
    const allowed = new Set(http.allow.map((a) => a.trim().toLowerCase()));
    for (const host of Object.keys(http.headers)) {
      if (!allowed.has(host.trim().toLowerCase())) {
        ctx.addIssue({ code: 'custom', path: ['headers', host], message: `"${host}" is not an entry of tools.http.allow` });
      }
    }
  });

export const sqlSourceSchema = z
  .object({
    /** `postgresql://…`, or a SQLite file: `sqlite:///abs/path.db` or `sqlite:relative/path.db` (opened read-only). */
    url: z.string().trim().regex(/^(postgres(ql)?:\/\/\S+|sqlite:\S+)$/, { message: 'expected a postgresql:// URL or sqlite:///path.db' }),
    conversations: conversationsSchema,
    /** Longest one query may run, in s. */
    timeout_s: positive(30),
    /** Most rows one query returns. */
    max_rows: positive(100_000, true),
    /** Largest result one query returns, in MB. */
    max_result_mb: positive(32),
    /** PostgreSQL: functions a statement may call beyond pg_catalog's built-in set, as `schema.function`. */
    functions: z
      .array(z.string().trim().regex(/^[^\s.]+\.[^\s.]+$/, { message: 'expected schema.function (e.g. public.fiscal_quarter)' }))
      .default([]),
    /** PostgreSQL: whether a named SECURITY DEFINER function may run. */
    security_definer: z.boolean().default(false),
    /** PostgreSQL: `allow` uses a role that may do more than read (a superuser, a file-reading or writing role). */
    privileged_role: z.enum(['refuse', 'allow']).default('refuse'),
  })
  .strict()
  .superRefine((source, ctx) => {
    if (!/^sqlite:/i.test(source.url)) return;
    for (const key of ['functions', 'security_definer', 'privileged_role'] as const) {
      const set = key === 'functions' ? source.functions.length > 0 : key === 'security_definer' ? source.security_definer : source.privileged_role === 'allow';
      if (set) ctx.addIssue({ code: 'custom', path: [key], message: 'applies to PostgreSQL sources only (a SQLite source calls no server function and has no role)' });
    }
  });

export const sqlToolSchema = z
  .object({
    sources: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_-]{0,63}$/, { message: 'a source name is letters, digits, _ and -' }), sqlSourceSchema).default({}),
    /** Most queries one execution may make. */
    max_calls: positive(100, true),
  })
  .strict();

export const toolsSchema = z
  .object({
    http: httpToolSchema.default(httpToolSchema.parse({})),
    sql: sqlToolSchema.default(sqlToolSchema.parse({})),
  })
  .strict();

/** The validated `tools` section. */
export type ToolsConfig = z.infer<typeof toolsSchema>;
/** The validated `tools.http` section. */
export type HttpToolConfig = ToolsConfig['http'];
/** One validated `tools.sql.sources.<name>`. */
export type SqlSourceConfig = z.infer<typeof sqlSourceSchema>;
