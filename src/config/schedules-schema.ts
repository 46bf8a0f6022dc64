/**
 * The `schedules` section of `config.yaml` (docs/schedules.md): the time zone `when`
 * is read in, per channel where it differs, and how many schedules a channel may have.
 *
 *     schedules:
 *       timezone: Europe/Berlin          # default UTC
 *       channel_timezones:
 *         "slack:T0001:C0NYC": America/New_York
 *       max_per_channel: 20
 */
import { z } from 'zod';

/** An IANA time zone name the runtime knows (`UTC`, `Europe/Berlin`). */
const zone = z
  .string()
  .trim()
  .refine(
    (v) => {
      try {
        new Intl.DateTimeFormat('en-US', { timeZone: v });
        return /^[A-Za-z]/.test(v);
      } catch {
        return false;
      }
    },
    { message: 'expected an IANA time zone name, e.g. UTC, Europe/Berlin, America/New_York' },
  );

/** The `schedules` section. */
export const schedulesSchema = z
  .object({
    /** The zone a channel's `when` is read in, unless the channel has its own or the `when` names one. */
    timezone: zone.default('UTC'),
    /** Zones of single conversations, by conversation id (`slack:<team>:<channel>`, `discord:<guild>:<channel>`, `matrix:<room>`). */
    channel_timezones: z.record(z.string(), zone).default({}),
    /** Most schedules per channel. */
    max_per_channel: z.preprocess((v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v), z.number().int().min(1).max(1000)).default(20),
  })
  .strict();

/** The validated `schedules` section. */
export type SchedulesConfig = z.infer<typeof schedulesSchema>;
