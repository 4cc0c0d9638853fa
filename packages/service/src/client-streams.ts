import type { ServerResponse } from 'node:http'
import { type EventStream, openEventStream } from '@vexil/server-kit'
import type { Clock } from './service-context.js'
import type { Database } from './db/database.js'
import type { Logger } from './logger.js'
import type { ApiTokenRow } from './store/api-tokens.js'
import { type ClientDelta, readClientDelta } from './store/client-delta.js'
import { type ClientFeaturesQuery, scopeKey } from './store/client-features.js'
import { readRevision } from './store/revision.js'
import type { StreamingConfig } from './streaming-config.js'

/** The channel migration 010's trigger notifies at each commit that changes the revision. */
const REVISION_CHANNEL = 'vexil_revision'

/** Open `/api/client/streaming` connections and the one watcher that feeds them all. */
export interface ClientStreams {
  /**
   * Starts a stream on `res` for `query`'s scope: `unleash-connected` with what a client at
   * revision `since` (its Last-Event-ID) lacks, then `unleash-updated` for each change.
   */
  open(res: ServerResponse, token: ApiTokenRow, query: ClientFeaturesQuery, since: number | undefined): Promise<void>
  /** Whether another stream may open (`STREAMING_MAX_CONNECTIONS`). */
  readonly full: boolean
  readonly size: number
  /** Ends every stream and stops watching; streams opened later end at once. */
  close(): Promise<void>
}

interface Connection {
  stream: EventStream
  token: ApiTokenRow
  query: ClientFeaturesQuery
  /** The scope's key (store/client-features.ts): equal keys, equal deltas. */
  scope: string
  /** The revision this client has: every change up to it was sent. */
  revision: number
}

/**
 * One watcher per service instance: a LISTEN on the revision channel (so a change committed
 * through any instance on the same database is heard at once) and a timer every keep-alive
 * interval that sends the keep-alive comments, re-reads the revision in case a notification was
 * lost, and ends the streams of tokens deleted or expired since they connected. A change is read
 * once per scope and revision, however many clients share them, and sent in revision order:
 * changes are published one round at a time.
 */
export function createClientStreams(options: {
  db: Database
  logger: Logger
  clock: Clock
  config: StreamingConfig
}): ClientStreams {
  const { db, logger, clock, config } = options
  const connections = new Set<Connection>()
  let watching: Promise<() => Promise<void>> | undefined
  let timer: NodeJS.Timeout | undefined
  let closed = false
  let publishing: Promise<void> | undefined
  let again = false

  const watch = () => {
    watching ??= db.listen(REVISION_CHANNEL, changed).catch((error: unknown) => {
      watching = undefined
      throw error
    })
    timer ??= setInterval(tick, config.keepAliveMs)
    timer.unref()
    return watching
  }

  function changed(): void {
    if (publishing) {
      again = true
      return
    }
    publishing = (async () => {
      do {
        again = false
        await publishRound().catch((error: unknown) =>
          logger.error('streaming: could not publish a change; retrying at the next keep-alive', error),
        )
      } while (again && !closed)
    })().finally(() => (publishing = undefined))
  }

  async function publishRound(): Promise<void> {
    if (connections.size === 0) return
    const revision = await readRevision(db)
    const groups = new Map<string, Connection[]>()
    for (const connection of connections) {
      if (connection.revision >= revision) continue
      const key = `${connection.revision} ${connection.scope}`
      const group = groups.get(key)
      if (group) group.push(connection)
      else groups.set(key, [connection])
    }
    for (const group of groups.values()) {
      const first = group[0] as Connection
      const delta = await readClientDelta(db, first.query, first.revision)
      const message = delta.events.length > 0 ? messageOf(delta) : undefined
      for (const connection of group) {
        if (message) connection.stream.send('unleash-updated', message, delta.revision)
        connection.revision = delta.revision
      }
    }
  }

  async function tick(): Promise<void> {
    for (const connection of connections) connection.stream.keepAlive()
    await endRevoked().catch((error: unknown) =>
      logger.error('streaming: could not re-check the tokens of open streams', error),
    )
    changed()
  }

  /** A deleted or expired token's streams end (its SDK's reconnect then gets 401). */
  async function endRevoked(): Promise<void> {
    if (connections.size === 0) return
    const ids = [...new Set([...connections].map((connection) => connection.token.id))]
    const rows = await db.query<{ id: number; expires_at: Date | null }>(
      'SELECT id, expires_at FROM api_tokens WHERE id = ANY($1::int[])',
      [ids],
    )
    const now = clock().getTime()
    const valid = new Set(rows.filter((row) => !row.expires_at || row.expires_at.getTime() > now).map((row) => row.id))
    for (const connection of connections) if (!valid.has(connection.token.id)) connection.stream.close()
  }

  return {
    async open(res, token, query, since) {
      await watch()
      const delta = await readClientDelta(db, query, since)
      const stream = openEventStream(res)
      if (closed) return stream.close()
      // The first message is sent even when empty: the SDK counts the stream as connected on it.
      stream.send('unleash-connected', messageOf(delta), delta.events.length > 0 ? delta.revision : undefined)
      const connection: Connection = { stream, token, query, scope: scopeKey(query), revision: delta.revision }
      connections.add(connection)
      void stream.ended.then(() => connections.delete(connection))
      // A change committed between the read above and this connection joining is sent now.
      changed()
    },
    get full() {
      return connections.size >= config.maxConnections
    },
    get size() {
      return connections.size
    },
    async close() {
      closed = true
      clearInterval(timer)
      for (const connection of connections) connection.stream.close()
      connections.clear()
      await publishing
      const stop = await watching?.catch(() => undefined)
      await stop?.()
    },
  }
}

function messageOf(delta: ClientDelta): string {
  return JSON.stringify({ events: delta.events })
}
