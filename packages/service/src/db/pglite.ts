import { PGlite } from '@electric-sql/pglite'
import { createConsoleLogger, type Logger } from '../logger.js'
import { preparePrivateFolder } from './data-folder.js'
import type { Database, Queryable } from './database.js'

interface SqlRunner {
  query(sql: string, params?: unknown[]): Promise<{ rows: unknown[] }>
}

export interface PgliteOptions {
  /** A data folder; omitted means an in-memory database (tests). */
  dataDir?: string
  /** Where a warning about the data folder's permissions goes. Default: the console. */
  logger?: Pick<Logger, 'warn'>
}

/** The embedded driver: PostgreSQL compiled to WASM, in-process, one connection. */
export async function createPgliteDatabase(options: PgliteOptions = {}): Promise<Database> {
  if (options.dataDir) preparePrivateFolder(options.dataDir, options.logger ?? createConsoleLogger('warn'))
  const pg = new PGlite(options.dataDir)
  await pg.waitReady
  const run =
    (q: SqlRunner): Queryable['query'] =>
    async (sql, params) =>
      (await q.query(sql, params as unknown[] | undefined)).rows as never
  let closed = false
  return {
    driver: 'pglite',
    query: run(pg),
    transaction: (fn) => pg.transaction((tx) => fn({ query: run(tx) })),
    // One in-process connection: nothing to drop, so nothing to re-open.
    async listen(channel, onNotify) {
      const stop = await pg.listen(channel, () => onNotify())
      return () => stop()
    },
    async close() {
      if (closed) return
      closed = true
      await pg.close()
    },
  }
}
