import type { Clock } from '../service-context.js'
import type { Queryable } from '../db/database.js'
import { countInRateWindow } from '../store/signal-rate-windows.js'

/** What one request was told: allowed or not, and the `RateLimit-*` numbers. */
export interface RateLimitDecision {
  allowed: boolean
  limit: number
  remaining: number
  /** Whole seconds until the current window ends (at least 1); `Retry-After` when refused. */
  resetSeconds: number
}

interface SignalRateLimiter {
  /** Counts one request against `key`'s (an endpoint id's) current one-second window. */
  take(key: number): Promise<RateLimitDecision>
}

const WINDOW_MS = 1_000

/**
 * A fixed one-second window per signal endpoint, opened by the first request, like
 * express-rate-limit's memory store that Unleash uses, but kept in the database
 * (store/signal-rate-windows.ts): every service instance on it counts against the same window,
 * so together they admit the limit, not the limit per instance. Time comes from the injected
 * clock, so tests control it.
 *
 * A window this instance saw full refuses the rest of its second here, without a write: a flood
 * of refused requests costs the database one upsert per window, not one per request.
 */
export function createSignalRateLimiter(db: Queryable, perSecond: number, clock: Clock): SignalRateLimiter {
  const fullFrom = new Map<number, number>()
  const decision = (allowed: boolean, count: number, start: number, now: number): RateLimitDecision => ({
    allowed,
    limit: perSecond,
    remaining: Math.max(0, perSecond - count),
    resetSeconds: Math.max(1, Math.ceil((start + WINDOW_MS - now) / 1000)),
  })
  return {
    async take(key) {
      const now = clock().getTime()
      const full = fullFrom.get(key)
      if (full !== undefined && now >= full && now < full + WINDOW_MS) return decision(false, perSecond, full, now)
      fullFrom.delete(key)
      const window = await countInRateWindow(db, key, new Date(now), WINDOW_MS)
      const start = window.started_at.getTime()
      if (window.count >= perSecond) fullFrom.set(key, start)
      return decision(window.count <= perSecond, window.count, start, now)
    },
  }
}
