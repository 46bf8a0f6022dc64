/**
 * The value types the sections of `config.yaml` share (`schema.ts`, `chat-schema.ts`): values that
 * may arrive as text from `${VAR}` expansion, where an empty one counts as not set.
 */
import { z } from 'zod';

/** Empty strings (from `${VAR}` with VAR unset) count as "not set". */
export const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v));

/** A number that may arrive as a string from `${VAR}` expansion. */
export const num = (def: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v)) ? Number(v) : v),
    z.number().positive(),
  ).default(def);

/** A whole number in [min, max] with a default (numbers written as text, from `${VAR}`, are read as numbers). */
export const int = (def: number, min = 1, max = Number.MAX_SAFE_INTEGER) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v)) ? Number(v) : v),
    z.number().int().min(min).max(max),
  ).default(def);

/** A list of ids (user, channel, role…), each read as text; default none. */
export const idList = z.array(z.coerce.string()).default([]);

/** An optional number (from `${VAR}` too; empty = not set) of at least `min`. */
export const optionalNumber = (min: number, integer: boolean) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : Number.isNaN(Number(v)) ? v : Number(v)) : v),
    (integer ? z.number().int() : z.number()).min(min).optional(),
  );

/** An optional http(s) URL; empty counts as not set. */
export const optionalUrl = optionalString.refine((v) => v === undefined || /^https?:\/\/[^\s/]+/.test(v), {
  message: 'expected an http:// or https:// URL',
});
