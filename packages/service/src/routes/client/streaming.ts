import type { H3Event } from 'h3'
import { eventHandler, getRequestHeader, setResponseHeader, setResponseStatus } from 'h3'
import { clientToken } from '../../auth.js'
import type { ClientStreams } from '../../client-streams.js'
import type { ServiceContext } from '../../service-context.js'
import { notFound, ServiceError } from '../../errors.js'
import { readClientDelta } from '../../store/client-delta.js'
import type { ApiRouter } from '../api-router.js'
import { clientQuery } from './client-query.js'

/**
 * `GET /api/client/delta` and `GET /api/client/streaming` (reference/edge-and-frontend-api.md
 * section 3), scoped like `/api/client/features`. Unleash's open-source server has neither; these
 * follow Unleash Enterprise and Edge as the Node SDK reads them. With `STREAMING=false` both
 * answer 404, which sends a streaming SDK back to polling.
 *
 * - delta: `If-None-Match` is the revision the client has (`"303"` or `303`; anything else is
 *   none, so a hydration); 200 `{"events":[...]}` with `ETag: "<revision>"`, or 304 when it is current.
 * - streaming: server-sent events; `unleash-connected` first (what the client at its
 *   `Last-Event-ID` lacks, or a hydration), then `unleash-updated` per change, each with the
 *   revision as its id; a keep-alive comment every `STREAMING_KEEPALIVE_MS`.
 */
export function registerClientStreamingRoutes(api: ApiRouter, ctx: ServiceContext, streams: ClientStreams): void {
  const enabled = () => {
    if (!ctx.config.streaming.enabled) throw notFound('Streaming (STREAMING=false)')
  }

  api.get(
    '/api/client/delta',
    'client',
    eventHandler(async (event) => {
      enabled()
      const delta = await readClientDelta(
        ctx.db,
        clientQuery(event),
        revisionOf(getRequestHeader(event, 'if-none-match')),
      )
      setResponseHeader(event, 'etag', `"${delta.revision}"`)
      setResponseHeader(event, 'cache-control', 'no-cache')
      if (delta.events.length === 0) {
        setResponseStatus(event, 304)
        return null
      }
      setResponseHeader(event, 'content-type', 'application/json; charset=utf-8')
      return JSON.stringify({ events: delta.events })
    }),
  )

  api.get(
    '/api/client/streaming',
    'client',
    eventHandler(async (event: H3Event) => {
      enabled()
      if (streams.full) {
        // 429 tells the Node SDK to poll instead (reference section 3.3).
        setResponseHeader(event, 'retry-after', 60)
        throw new ServiceError(
          'RateLimitError',
          `This instance has ${ctx.config.streaming.maxConnections} open streams (STREAMING_MAX_CONNECTIONS); poll /api/client/features instead.`,
        )
      }
      await streams.open(
        event.node.res,
        clientToken(event),
        clientQuery(event),
        revisionOf(getRequestHeader(event, 'last-event-id')),
      )
    }),
  )
}

/** A revision sent back by a client: a non-negative integer, quoted or not (weak prefix allowed). */
function revisionOf(header: string | undefined): number | undefined {
  const match = header === undefined ? null : /^\s*(?:W\/)?"?(\d{1,15})"?\s*$/.exec(header)
  return match ? Number(match[1]) : undefined
}
