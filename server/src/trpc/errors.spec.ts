import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { DatabaseError } from 'pg';
import { QueryFailedError } from 'typeorm';
import { toTrpcError } from './errors';

const pgError = (code: string) =>
  new QueryFailedError('INSERT INTO "user" …', [], Object.assign(new Error('duplicate key value violates unique constraint "user_email_key"'), { code }));

describe('toTrpcError', () => {
  it.each([
    ['23505', 'CONFLICT', 409],
    ['23503', 'CONFLICT', 409],
    ['23502', 'BAD_REQUEST', 400],
    ['23514', 'BAD_REQUEST', 400],
    ['22P02', 'BAD_REQUEST', 400],
    ['57014', 'TIMEOUT', 408],
  ])('maps PostgreSQL %s to %s (%i) with a message free of SQL', (pg, code, status) => {
    const e = toTrpcError(pgError(pg));
    expect(e.code).toBe(code);
    expect(getHTTPStatusCodeFromError(e)).toBe(status);
    expect(e.message).not.toMatch(/INSERT|constraint|user_email_key/);
  });

  it.each([
    ['40P01', 'CONFLICT', 409],
    ['23505', 'CONFLICT', 409],
    ['22P02', 'BAD_REQUEST', 400],
  ])("maps the driver's own DatabaseError %s (SQL run on a pooled client) to %s (%i) like TypeORM's", (pg, code, status) => {
    const e = toTrpcError(Object.assign(new DatabaseError('deadlock detected while updating "controller"', 80, 'error'), { code: pg }));
    expect(e.code).toBe(code);
    expect(getHTTPStatusCodeFromError(e)).toBe(status);
    expect(e.message).not.toMatch(/deadlock|controller/);
  });

  it('keeps TRPCErrors as they are and hides anything else behind a 500 without details', () => {
    const own = new TRPCError({ code: 'NOT_FOUND', message: 'System not found' });
    expect(toTrpcError(own)).toBe(own);
    const hidden = toTrpcError(new Error('connection refused at 10.0.0.3:5432'));
    expect(hidden.code).toBe('INTERNAL_SERVER_ERROR');
    expect(hidden.message).toBe('Internal server error');
  });

  it('the spec §8 code → HTTP status table holds', () => {
    const table: [TRPCError['code'], number][] = [
      ['PARSE_ERROR', 400],
      ['BAD_REQUEST', 400],
      ['UNAUTHORIZED', 401],
      ['FORBIDDEN', 403],
      ['NOT_FOUND', 404],
      ['METHOD_NOT_SUPPORTED', 405],
      ['TIMEOUT', 408],
      ['CONFLICT', 409],
      ['PRECONDITION_FAILED', 412],
      ['PAYLOAD_TOO_LARGE', 413],
      ['UNPROCESSABLE_CONTENT', 422],
      ['TOO_MANY_REQUESTS', 429],
      ['CLIENT_CLOSED_REQUEST', 499],
      ['INTERNAL_SERVER_ERROR', 500],
      ['NOT_IMPLEMENTED', 501],
    ];
    for (const [code, status] of table) {
      expect([code, getHTTPStatusCodeFromError(new TRPCError({ code }))]).toEqual([code, status]);
    }
  });
});
