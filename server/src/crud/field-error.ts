import { TRPCError } from '@trpc/server';
import { z } from 'zod';

/**
 * A 400 whose `fieldErrors` name the fields (the error formatter reads a ZodError cause), for
 * checks made after input parsing: a template, a type's kind …
 */
export function fieldErrors(issues: { path: (string | number)[]; message: string }[], message = issues[0]?.message ?? 'Invalid input'): TRPCError {
  // Made by a failing parse: a ZodError built with `new` is not an Error, and tRPC would drop it as a cause.
  const failing = z.unknown().superRefine((_, ctx) => {
    for (const i of issues) ctx.addIssue({ code: 'custom', path: i.path, message: i.message });
  });
  const cause = failing.safeParse(undefined).error;
  return new TRPCError({ code: 'BAD_REQUEST', message, cause });
}

export const fieldError = (path: (string | number)[], message: string): TRPCError => fieldErrors([{ path, message }]);
