/** The rows of a raw query's result: node-postgres and PGlite both answer raw queries with { rows }. */
export function rowsOf<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
