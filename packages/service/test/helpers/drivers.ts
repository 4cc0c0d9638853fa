import pg from 'pg'
import { afterAll } from 'vitest'
import type { Database } from '../../src/db/database.js'
import { createPgliteDatabase } from '../../src/db/pglite.js'
import { createPostgresDatabase } from '../../src/db/postgres.js'
import { startPostgresServer } from './postgres-server.js'

/** UTC+13:45 in the southern summer: no UTC day boundary survives it by accident. */
const FAR_ZONE = 'Pacific/Chatham'

export interface Driver {
  name: 'pglite' | 'postgres'
  /** Opens a fresh, empty database; `undefined` when the driver is not available here. */
  open: (() => Promise<Database>) | undefined
  /** A second connection (pool) to the database `open` made last: another service instance. */
  openAgain: (() => Promise<Database>) | undefined
}

/**
 * Both drivers for a `describe.each` (STYLE 8): an in-memory PGlite, and a real PostgreSQL server
 * started for the calling file (stopped after it). Without PostgreSQL the postgres entry has no
 * `open` and the caller skips it with a message; under CI=true its absence fails instead.
 * Sessions run in a time zone far from UTC, so SQL that leans on the session's zone shows up.
 */
export async function databaseDrivers(file: string): Promise<Driver[]> {
  const server = await startPostgresServer()
  if (!server)
    console.warn(`[${file}] PostgreSQL is not installed: the postgres driver run is skipped (it fails under CI=true).`)
  afterAll(() => server?.stop())
  let lastUrl: string | undefined
  const connect = (url: string) => createPostgresDatabase({ connectionString: url })
  const createDatabase = async (create: () => Promise<string>) => {
    const url = await create()
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    await client.query(`ALTER DATABASE "${new URL(url).pathname.slice(1)}" SET timezone TO '${FAR_ZONE}'`)
    await client.end()
    return (lastUrl = url)
  }
  return [
    {
      name: 'pglite',
      open: async () => {
        const db = await createPgliteDatabase()
        await db.query(`SET timezone TO '${FAR_ZONE}'`)
        return db
      },
      openAgain: undefined,
    },
    {
      name: 'postgres',
      open: server ? async () => connect(await createDatabase(() => server.createDatabase())) : undefined,
      openAgain: server ? async () => connect(lastUrl as string) : undefined,
    },
  ]
}
