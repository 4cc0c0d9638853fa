import { eventHandler, type H3Event, setResponseHeaders } from 'h3'
import { signalCaller } from '../auth.js'
import type { ServiceContext } from '../service-context.js'
import { ServiceError } from '../errors.js'
import { createSignalRateLimiter, type RateLimitDecision } from '../signals/rate-limiter.js'
import { readSignalPayload } from '../signals/read-payload.js'
import { iso } from '../store/rows.js'
import { insertSignal } from '../store/signals.js'
import type { ApiRouter } from './api-router.js'

/** Told about each stored signal, so actions run at once rather than at the next sweep. */
interface SignalListener {
  wake(): void
}

/**
 * `POST /api/signal-endpoint/:name` (spec 4.6). Checks run cheapest-first and never read a body
 * for a caller that may not send one: 404 unknown or disabled endpoint, 401 missing or wrong
 * token, 429 over the endpoint's rate, then the body: 415 not JSON, 413 over the payload limit,
 * 400 invalid JSON. 200 answers with a description of the stored signal.
 */
export function registerSignalIngestRoutes(api: ApiRouter, ctx: ServiceContext, listener?: SignalListener): void {
  const { ratePerSecond, payloadLimitBytes } = ctx.config.signals
  const limiter = createSignalRateLimiter(ctx.db, ratePerSecond, ctx.clock)

  api.post(
    '/api/signal-endpoint/:name',
    'signal',
    eventHandler(async (event) => {
      // The route's `signal` access (auth.ts) answered 404 for an unknown endpoint and 401 for a wrong token.
      const { endpoint, token } = signalCaller(event)
      rateLimit(event, await limiter.take(endpoint.id))
      const payload = await readSignalPayload(event, payloadLimitBytes)
      const signal = await insertSignal(ctx.db, { endpointId: endpoint.id, tokenId: token.id, payload }, ctx.clock())
      listener?.wake()
      return {
        id: signal.id,
        source: signal.source,
        sourceId: endpoint.id,
        sourceName: endpoint.name,
        tokenName: token.name,
        createdAt: iso(signal.created_at),
      }
    }),
  )
}

/** `RateLimit-*` headers (IETF draft, as express-rate-limit's standardHeaders); 429 with `Retry-After` when refused. */
function rateLimit(event: H3Event, decision: RateLimitDecision): void {
  setResponseHeaders(event, {
    'ratelimit-policy': `${decision.limit};w=1`,
    'ratelimit-limit': String(decision.limit),
    'ratelimit-remaining': String(decision.remaining),
    'ratelimit-reset': String(decision.resetSeconds),
  })
  if (decision.allowed) return
  setResponseHeaders(event, { 'retry-after': decision.resetSeconds })
  throw new ServiceError(
    'RateLimitError',
    `Too many signals: this endpoint takes at most ${decision.limit} per second. Retry after ${decision.resetSeconds} s.`,
  )
}
