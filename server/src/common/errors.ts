import { TRPCError } from '@trpc/server';

/** A wrong id and a foreign id answer exactly alike. */
export const notFound = (what: string): TRPCError => new TRPCError({ code: 'NOT_FOUND', message: `${what} not found` });

export const forbidden = (message = 'You do not have permission to do this'): TRPCError => new TRPCError({ code: 'FORBIDDEN', message });
