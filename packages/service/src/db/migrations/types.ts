/** One schema step. SQL lives in TypeScript so `dist/` needs no copy step. */
export interface Migration {
  /** Strictly increasing; applied in order, each exactly once. */
  version: number
  name: string
  sql: string
}
