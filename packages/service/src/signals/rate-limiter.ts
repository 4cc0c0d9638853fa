import type { Clock } from '../context.js'

/** What one request was told: allowed or not, and the `RateLimit-*` numbers. */
export interface RateLimitDecision {
  allowed: boolean
  limit: number
  remaining: number
  /** Whole seconds until the current window ends (at least 1); `Retry-After` when refused. */
  resetSeconds: number
}

export interface SignalRateLimiter {
  /** Counts one request against `key`'s current one-second window. */
  take(key: number): RateLimitDecision
}

const WINDOW_MS = 1_000
const PRUNE_ABOVE = 1_000

/**
 * A fixed one-second window per key (per signal endpoint), opened by the first request, like
 * express-rate-limit's memory store that Unleash uses. In-process: each service instance
 * enforces its own limit. Time comes from the injected clock, so tests control it.
 */
export function createSignalRateLimiter(perSecond: number, clock: Clock): SignalRateLimiter {
  const windows = new Map<number, { start: number; count: number }>()
  return {
    take(key) {
      const now = clock().getTime()
      let window = windows.get(key)
      // A clock that went back (tests, NTP) opens a new window rather than freezing the old one.
      if (!window || now - window.start >= WINDOW_MS || now < window.start) {
        if (windows.size >= PRUNE_ABOVE) prune(windows, now)
        window = { start: now, count: 0 }
        windows.set(key, window)
      }
      const resetSeconds = Math.max(1, Math.ceil((window.start + WINDOW_MS - now) / 1000))
      if (window.count >= perSecond) return { allowed: false, limit: perSecond, remaining: 0, resetSeconds }
      window.count++
      return { allowed: true, limit: perSecond, remaining: perSecond - window.count, resetSeconds }
    },
  }
}

function prune(windows: Map<number, { start: number }>, now: number): void {
  for (const [key, window] of windows) if (now - window.start >= WINDOW_MS) windows.delete(key)
}
