import { useMutation, useQuery, type UseMutationOptions } from '@tanstack/react-query';
import type { Identifier } from 'react-admin';
import { trpc } from '../trpc';
import { chunks } from './csv';

// The generic widgets' calls: any resource's `dependents` (a delete confirmation) and `importMany`
// (the CSV import). Components take these hooks; none holds the tRPC client.

/** A mutation hook's options beyond its call: what the screen does when it succeeds or fails. */
export type MutationOptions<TData, TVariables = void> = Omit<UseMutationOptions<TData, Error, TVariables>, 'mutationFn'>;

export interface DependentsAnswer {
  deletable: boolean;
  blocked: boolean;
  dependents: { kind: string; action: 'delete' | 'unlink' | 'block'; count: number; more: boolean; label: string }[];
  /** The server's sentence, in the user's language. */
  message: string;
}
type DependentsProcedure = { dependents?: { query(input: { ids: string[] }): Promise<{ data: DependentsAnswer }> } };

/** Most records one question names (the server's limit); a larger selection gets the plain warning. */
export const DEPENDENTS_MAX_IDS = 100;

/** `<resource>.dependents` for some ids, when the resource has it (undefined otherwise). */
export function useDependents(resource: string, ids: Identifier[], enabled = true) {
  const key = ids.map(String).sort();
  const procedure = (trpc as unknown as Record<string, DependentsProcedure>)[resource]?.dependents;
  return useQuery({
    queryKey: [resource, 'dependents', key],
    queryFn: async () => (await procedure!.query({ ids: key })).data,
    enabled: enabled && !!procedure && key.length > 0 && key.length <= DEPENDENTS_MAX_IDS,
    staleTime: 5_000,
  });
}

export const IMPORT_CHUNK = 100;

export interface ImportError {
  row: number;
  field?: string;
  message: string;
}
export interface ImportResult {
  created: number;
  ids: string[];
  errors: ImportError[];
}
export type ImportMode = 'validate' | 'all' | 'validOnly';
type ImportProcedure = { importMany: { mutate(input: { rows: Record<string, string>[]; mode: ImportMode }): Promise<ImportResult> } };

/** `<resource>.importMany` over chunks of rows; errors come back with file-wide row numbers. */
export async function importInChunks(
  resource: string,
  rows: Record<string, string>[],
  mode: ImportMode,
  onProgress: (done: number) => void,
): Promise<ImportResult> {
  const procedure = (trpc as unknown as Record<string, ImportProcedure>)[resource];
  const out: ImportResult = { created: 0, ids: [], errors: [] };
  let offset = 0;
  for (const chunk of chunks(rows, IMPORT_CHUNK)) {
    const res = await procedure.importMany.mutate({ rows: chunk, mode });
    out.created += res.created;
    out.ids.push(...res.ids);
    out.errors.push(...res.errors.map((e) => ({ ...e, row: e.row + offset })));
    offset += chunk.length;
    onProgress(offset);
    // "all" writes every row or none: stop at the first chunk the server refused.
    if (mode === 'all' && res.errors.length > 0) break;
  }
  return out;
}

export interface ImportRequest {
  rows: Record<string, string>[];
  mode: ImportMode;
  onProgress: (done: number) => void;
}

/** The CSV import of one resource (check, all rows, or only the valid ones), chunk by chunk. */
export function useImportRows(resource: string) {
  return useMutation({ mutationFn: ({ rows, mode, onProgress }: ImportRequest) => importInChunks(resource, rows, mode, onProgress) });
}
