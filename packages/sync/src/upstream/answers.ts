// Reading the upstream's answers: what counts as a payload, how long it asks us to wait, and a
// failed call as words for a log line or an event.

/** `{ features: [...] }` or `{ events: [...] }`, as the engine's `load` takes them. */
export function isPayload(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false
  const payload = value as { features?: unknown; events?: unknown }
  return Array.isArray(payload.features) || Array.isArray(payload.events)
}

/** Retry-After in ms: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | string[] | null | undefined, now = Date.now()): number | undefined {
  const value = Array.isArray(header) ? header[0] : header
  if (!value) return undefined
  if (/^\s*\d+\s*$/.test(value)) return Number(value.trim()) * 1000
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

/** A thrown error as text, with its cause (fetch's "fetch failed" says nothing alone). */
export function messageOf(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause
    const detail = cause instanceof Error ? ` (${cause.message})` : ''
    return error.name === 'TimeoutError' ? 'the request timed out' : `${error.message}${detail}`
  }
  return String(error)
}
