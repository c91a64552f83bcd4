import { TRPCError } from '@trpc/server';
import { z } from 'zod';

/**
 * A TRPCError (400 unless `code` says otherwise, e.g. CONFLICT on a duplicate email) whose
 * `fieldErrors` name the fields (the error formatter reads a ZodError cause), for checks made
 * after input parsing: a template, a type's kind, a name already taken …
 */
export function fieldErrors(
  issues: { path: (string | number)[]; message: string }[],
  message = issues[0]?.message ?? 'Invalid input',
  code: TRPCError['code'] = 'BAD_REQUEST',
): TRPCError {
  // Made by a failing parse: a ZodError built with `new` is not an Error, and tRPC would drop it as a cause.
  const failing = z.unknown().superRefine((_, ctx) => {
    for (const i of issues) ctx.addIssue({ code: 'custom', path: i.path, message: i.message });
  });
  const cause = failing.safeParse(undefined).error;
  return new TRPCError({ code, message, cause });
}

/** The error of one field (`path` as the input names it, e.g. ['data', 'name']). */
export const fieldError = (path: (string | number)[], message: string, code: TRPCError['code'] = 'BAD_REQUEST'): TRPCError =>
  fieldErrors([{ path, message }], message, code);

/** The field errors a TRPCError carries (as the tRPC error formatter reports them), for a REST answer. */
export function fieldErrorsOf(error: TRPCError): { path: string; message: string }[] | undefined {
  return error.cause instanceof z.ZodError ? error.cause.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })) : undefined;
}

/** Marks errors thrown by `check` as being about `field` (an import reports them on that column). */
export async function withField<T>(field: string | undefined, check: () => Promise<T>): Promise<T> {
  try {
    return await check();
  } catch (error) {
    if (field && error instanceof TRPCError && !(error as { field?: string }).field) Object.assign(error, { field });
    throw error;
  }
}
