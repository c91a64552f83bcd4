/**
 * The rows of an `UPDATE … RETURNING` (or `DELETE … RETURNING`) sent through TypeORM's `query()`:
 * on PostgreSQL the driver answers `[rows, affected]`, on PGlite and for SELECT / INSERT the rows
 * themselves. Reading the pair as rows was a real defect once (a quiet trigger's write never
 * seen as done), so every repository reads such answers through this one function.
 */
export function updatedRows<T>(result: unknown): T[] {
  return (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number' ? result[0] : result) as T[];
}
