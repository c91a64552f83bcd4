import { TRPCError } from '@trpc/server';
import { DatabaseError } from 'pg';
import { QueryFailedError } from 'typeorm';
import { ownEntry } from '../../../shared/common/own-entry';

/** PostgreSQL error codes a user's input can provoke, and what we tell them. */
const PG_ERRORS: Record<string, { code: TRPCError['code']; message: string }> = {
  '23505': { code: 'CONFLICT', message: 'A record with the same unique value already exists' },
  '23503': { code: 'CONFLICT', message: 'This record is linked to another record that is missing or still in use' },
  // ON DELETE RESTRICT (a manufacturer still named by a device type): 23001, not 23503.
  '23001': { code: 'CONFLICT', message: 'This record is linked to another record that is missing or still in use' },
  '23502': { code: 'BAD_REQUEST', message: 'A required value is missing' },
  '23514': { code: 'BAD_REQUEST', message: 'A value is outside the allowed range' },
  '22P02': { code: 'BAD_REQUEST', message: 'A value has the wrong format' },
  // A NUL character (U+0000) in text or JSON: PostgreSQL cannot store it.
  '22021': { code: 'BAD_REQUEST', message: 'A value contains a character that cannot be stored' },
  '22P05': { code: 'BAD_REQUEST', message: 'A value contains a character that cannot be stored' },
  '22001': { code: 'BAD_REQUEST', message: 'A value is too long' },
  '22003': { code: 'BAD_REQUEST', message: 'A number is out of range' },
  '22007': { code: 'BAD_REQUEST', message: 'A date or time has the wrong format' },
  '22008': { code: 'BAD_REQUEST', message: 'A date or time is out of range' },
  '57014': { code: 'TIMEOUT', message: 'The database took too long to answer' },
  '40001': { code: 'CONFLICT', message: 'The record was changed at the same time by someone else; try again' },
  '40P01': { code: 'CONFLICT', message: 'The record was changed at the same time by someone else; try again' },
};

/** What a user is told for a PostgreSQL SQLSTATE their input can provoke (any driver: pg, TypeORM, PGlite), or undefined. */
export function knownDatabaseError(code: string | undefined): { code: TRPCError['code']; message: string } | undefined {
  return code && Object.hasOwn(PG_ERRORS, code) ? PG_ERRORS[code] : undefined;
}

/** Turns any error into a TRPCError whose message is safe to show (no SQL, no stack). */
export function toTrpcError(error: unknown): TRPCError {
  if (error instanceof TRPCError) return error;
  // TypeORM wraps the driver's error; code that runs SQL on a pooled client (withPgTransaction)
  // sees the driver's own DatabaseError. Both carry PostgreSQL's SQLSTATE.
  const code =
    error instanceof QueryFailedError
      ? (error as QueryFailedError & { driverError?: { code?: string } }).driverError?.code
      : error instanceof DatabaseError
        ? error.code
        : undefined;
  const known = code ? ownEntry(PG_ERRORS, code) : undefined;
  if (known) return new TRPCError({ code: known.code, message: known.message, cause: error });
  return new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: 'Internal server error', cause: error });
}

/** The cause of a PRECONDITION_FAILED that asks for the user's password again (step-up, ASVS 5.0 7.5.3). */
export class StepUpRequired extends Error {
  readonly stepUp = true;
}

/** PRECONDITION_FAILED (412) with `data.stepUp = true` in the answer: the client asks for the password and sends again with it. */
export function stepUpRequired(message: string): TRPCError {
  return new TRPCError({ code: 'PRECONDITION_FAILED', message, cause: new StepUpRequired(message) });
}

/** Whether an error asks for a step-up (see stepUpRequired). */
export function isStepUpRequired(error: TRPCError): boolean {
  return error.code === 'PRECONDITION_FAILED' && error.cause instanceof StepUpRequired;
}
