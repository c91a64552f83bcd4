import { z } from 'zod';

/** Shared field schemas for records and forms. */
export const ZName = z.string().trim().min(1, 'Required').max(200);
export const ZRefCuid = z.string().trim().min(1, 'Required').max(32);
export const ZOptionalText = (max: number) => z.string().trim().max(max).nullable().optional();

const knownZones = new Set(Intl.supportedValuesOf('timeZone').concat(['UTC']));
export const ZTimezone = z.string().refine((tz) => knownZones.has(tz), 'A time zone such as Africa/Nairobi');

/** A calendar date (YYYY-MM-DD) that exists: 2025-02-29 and 2025-13-45 are refused. */
export const ZIsoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'A date like 2026-11-21')
  .refine((v) => {
    const d = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
  }, 'This date does not exist');
