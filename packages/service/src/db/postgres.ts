import pg from 'pg'
import type { Database, Queryable } from './database.js'

export interface PostgresOptions {
  connectionString: string
  /** Pool size; PostgreSQL serializes nothing for us, so this bounds concurrency. */
  maxConnections?: number
}

// int8 (count(*), bigserial, bigint counters) as numbers, like PGlite; numeric as numbers too.
const INT8 = 20
const NUMERIC = 1700
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8 || oid === NUMERIC) return (value: string) => Number(value)
    return pg.types.getTypeParser(oid, format)
  },
}

/** The server driver: a `pg` pool on `DATABASE_URL`. */
export async function createPostgresDatabase(options: PostgresOptions): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.maxConnections ?? 10,
    types,
  })
  // Fail at startup, with the driver's message, rather than on the first request.
  const probe = await pool.connect()
  probe.release()
  const run =
    (client: pg.Pool | pg.PoolClient): Queryable['query'] =>
    async (sql, params) =>
      (await client.query(sql, params as unknown[] | undefined)).rows
  let closed = false
  return {
    driver: 'postgres',
    query: run(pool),
    async transaction(fn) {
      const client = await pool.connect()
      try {
        await client.query('BEGIN')
        const result = await fn({ query: run(client) })
        await client.query('COMMIT')
        return result
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined)
        throw error
      } finally {
        client.release()
      }
    },
    listen: (channel, onNotify) => listenOn(options.connectionString, channel, onNotify),
    async close() {
      if (closed) return
      closed = true
      await pool.end()
    },
  }
}

const RELISTEN_MS = { first: 250, max: 10_000 }

/**
 * LISTEN on a connection of its own (a pooled one is handed to others between queries). When it
 * drops, it is re-opened with backoff and `onNotify` called, since a notification sent meanwhile
 * was lost.
 */
async function listenOn(connectionString: string, channel: string, onNotify: () => void): Promise<() => Promise<void>> {
  let stopped = false
  let client: pg.Client | undefined
  let retry: NodeJS.Timeout | undefined
  let delay = RELISTEN_MS.first
  const open = async () => {
    const next = new pg.Client({ connectionString })
    next.on('notification', (message) => {
      if (message.channel === channel) onNotify()
    })
    next.on('error', () => dropped(next))
    next.on('end', () => dropped(next))
    try {
      await next.connect()
      await next.query(`LISTEN "${channel.replaceAll('"', '""')}"`)
    } catch (error) {
      await next.end().catch(() => undefined)
      throw error
    }
    client = next
    delay = RELISTEN_MS.first
  }
  const dropped = (which: pg.Client) => {
    if (stopped || which !== client) return
    client = undefined
    which.end().catch(() => undefined)
    schedule()
  }
  const schedule = () => {
    retry = setTimeout(() => {
      open().then(onNotify, () => {
        delay = Math.min(delay * 2, RELISTEN_MS.max)
        if (!stopped) schedule()
      })
    }, delay)
    retry.unref()
  }
  await open()
  return async () => {
    stopped = true
    clearTimeout(retry)
    await client?.end().catch(() => undefined)
  }
}
