/** Anything that runs one SQL statement with `$1`-style parameters and returns the rows. */
export interface Queryable {
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<Row[]>
}

/**
 * The one interface both drivers (PGlite, a PostgreSQL server) implement. SQL is PostgreSQL;
 * jsonb parameters are passed as JSON strings, int8 columns come back as numbers,
 * timestamptz as `Date`.
 */
export interface Database extends Queryable {
  /** Which driver this is, for logs. */
  readonly driver: 'pglite' | 'postgres'
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>
  /**
   * Calls `onNotify` after each committed `NOTIFY channel`, whichever connection (or service
   * instance) sent it; resolves once listening, to a function that stops. Should the listening
   * connection drop, it is re-opened and `onNotify` called once, as notifications may have been
   * missed meanwhile.
   */
  listen(channel: string, onNotify: () => void): Promise<() => Promise<void>>
  /** Flushes and releases the database; the instance is unusable afterwards. */
  close(): Promise<void>
}
