import { z } from 'zod';

/** Shared field schemas for records and forms. */
export const ZName = z.string().trim().min(1, 'Required').max(200);
export const ZRefCuid = z.string().trim().min(1, 'Required').max(32);
export const ZOptionalText = (max: number) => z.string().trim().max(max).nullable().optional();

const knownZones = new Set(Intl.supportedValuesOf('timeZone').concat(['UTC']));
export const ZTimezone = z.string().refine((tz) => knownZones.has(tz), 'A time zone such as Africa/Nairobi');

export const ZIsoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'A date like 2026-11-21');
