import { TRPCClientError } from '@trpc/client';
import { type DataProvider, HttpError } from 'ra-core';
import { trpc } from './trpc';

/** react-admin's nine calls; the first four are queries (GET), the rest mutations (POST). */
export const QUERY_METHODS = ['getList', 'getOne', 'getMany', 'getManyReference'] as const;
export const MUTATION_METHODS = ['create', 'update', 'updateMany', 'delete', 'deleteMany'] as const;
export type DataMethod = (typeof QUERY_METHODS)[number] | (typeof MUTATION_METHODS)[number];

interface UntypedProcedure {
  query(input: unknown, opts?: { signal?: AbortSignal }): Promise<unknown>;
  mutate(input: unknown, opts?: { signal?: AbortSignal }): Promise<unknown>;
}
type UntypedClient = Record<string, Record<string, UntypedProcedure>>;

/** A tRPC failure as react-admin understands it: HttpError(message, status, body). */
export function toHttpError(error: unknown): unknown {
  if (!(error instanceof TRPCClientError)) return error;
  const data = (error.data ?? {}) as { httpStatus?: number; code?: string; fieldErrors?: { path: string; message: string }[] };
  const fieldErrors = data.fieldErrors ?? [];
  // react-admin shows body.errors next to the form fields. Inputs are react-admin's params, so a
  // field of the record is reported as `data.<field>` (create, update): the form knows `<field>`.
  const errors = Object.fromEntries(fieldErrors.map((f) => [f.path ? f.path.replace(/^data\./, '') : 'root.serverError', f.message]));
  return new HttpError(error.message, data.httpStatus ?? 0, {
    code: data.code,
    fieldErrors,
    ...(fieldErrors.length ? { errors } : {}),
  });
}

/**
 * One generic dataProvider over tRPC: `<resource>.<method>` with react-admin's params object as
 * the input (minus the abort signal, which goes to fetch) and react-admin's result shape as the
 * output, e.g. dataProvider.getList('system', params) → system.getList(params) → { data, total }.
 */
export function createDataProvider(client: unknown = trpc): DataProvider {
  const procedures = client as UntypedClient;
  const call = async <T>(resource: string, method: DataMethod, params: unknown): Promise<T> => {
    const { signal, ...input } = (params ?? {}) as { signal?: AbortSignal } & Record<string, unknown>;
    const procedure = procedures[resource]?.[method];
    try {
      return (
        (QUERY_METHODS as readonly string[]).includes(method) ? await procedure.query(input, { signal }) : await procedure.mutate(input, { signal })
      ) as T;
    } catch (error) {
      throw toHttpError(error);
    }
  };

  return {
    getList: (resource, params) => call(resource, 'getList', params),
    getOne: (resource, params) => call(resource, 'getOne', params),
    getMany: (resource, params) => call(resource, 'getMany', params),
    getManyReference: (resource, params) => call(resource, 'getManyReference', params),
    create: (resource, params) => call(resource, 'create', params),
    update: (resource, params) => call(resource, 'update', params),
    updateMany: (resource, params) => call(resource, 'updateMany', params),
    delete: (resource, params) => call(resource, 'delete', params),
    deleteMany: (resource, params) => call(resource, 'deleteMany', params),
    supportAbortSignal: true,
  };
}
