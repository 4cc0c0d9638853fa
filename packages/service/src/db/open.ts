import type { Logger } from '../logger.js'
import type { Database } from './database.js'
import { createPgliteDatabase } from './pglite.js'
import { createPostgresDatabase } from './postgres.js'

export interface OpenDatabaseOptions {
  /** A PostgreSQL connection string; when set, the server driver is used. */
  databaseUrl?: string
  /** PGlite's data folder; omitted (and no URL) means in memory. */
  dataDir?: string
  /** Where a warning about PGlite's data folder goes. Default: the console. */
  logger?: Pick<Logger, 'warn'>
}

/** Picks the driver: `databaseUrl` means a PostgreSQL server, otherwise PGlite. */
export function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  if (options.databaseUrl) return createPostgresDatabase({ connectionString: options.databaseUrl })
  return createPgliteDatabase(
    options.dataDir ? { dataDir: options.dataDir, ...(options.logger ? { logger: options.logger } : {}) } : {},
  )
}
