import type { H3Event, Router } from 'h3'
import { eventHandler, setResponseHeaders } from 'h3'
import { presentedSecret } from '../auth.js'
import type { ServiceContext } from '../context.js'
import { notFound, ServiceError } from '../errors.js'
import { createSignalRateLimiter, type RateLimitDecision } from '../signals/rate-limiter.js'
import { readSignalPayload } from '../signals/read-payload.js'
import { matchSignalToken } from '../signals/tokens.js'
import { iso } from '../store/rows.js'
import { findEnabledSignalEndpoint, listSignalTokens } from '../store/signal-endpoints.js'
import { insertSignal } from '../store/signals.js'
import { param } from './http.js'

/** Told about each stored signal, so actions run at once rather than at the next sweep. */
export interface SignalListener {
  wake(): void
}

/**
 * `POST /api/signal-endpoint/:name` (spec 4.6). Checks run cheapest-first and never read a body
 * for a caller that may not send one: 404 unknown or disabled endpoint, 401 missing or wrong
 * token, 429 over the endpoint's rate, then the body: 415 not JSON, 413 over the payload limit,
 * 400 invalid JSON. 200 answers with a description of the stored signal.
 */
export function registerSignalIngestRoutes(router: Router, ctx: ServiceContext, listener?: SignalListener): void {
  const { ratePerSecond, payloadLimitBytes } = ctx.config.signals
  const limiter = createSignalRateLimiter(ratePerSecond, ctx.clock)

  router.post('/api/signal-endpoint/:name', eventHandler(async (event) => {
    const name = param(event, 'name')
    const endpoint = await findEnabledSignalEndpoint(ctx.db, name)
    if (!endpoint) throw notFound(`Signal endpoint "${name}"`)
    const secret = presentedSecret(event)
    if (!secret) throw new ServiceError('AuthenticationRequired', 'Send one of the endpoint\'s tokens: Authorization: Bearer <token>.')
    const token = matchSignalToken(secret, await listSignalTokens(ctx.db, [endpoint.id]))
    if (!token) throw new ServiceError('InvalidTokenError', `The token is not one of signal endpoint "${name}"'s tokens.`)
    rateLimit(event, limiter.take(endpoint.id))
    const payload = await readSignalPayload(event, payloadLimitBytes)
    const signal = await insertSignal(ctx.db, { endpointId: endpoint.id, tokenId: token.id, payload }, ctx.clock())
    listener?.wake()
    return { id: signal.id, source: signal.source, sourceId: endpoint.id, sourceName: endpoint.name, tokenName: token.name, createdAt: iso(signal.created_at) }
  }))
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
  throw new ServiceError('RateLimitError', `Too many signals: this endpoint takes at most ${decision.limit} per second. Retry after ${decision.resetSeconds} s.`)
}
