// What the poller and the stream hand their results to (the provider): payloads to apply, and
// each attempt's outcome, from which it derives its OpenFeature status events.

export type SyncOutcome =
  | { ok: true }
  /** `status`: the HTTP status when the upstream answered, undefined for a network error or timeout. */
  | { ok: false; status: number | undefined; message: string }

export interface SyncTarget {
  /** The ETag of the flags held, when they came from a poll (the stream's changes clear it). */
  readonly etag: string | undefined
  /** The text of the flags held, when they came from a poll: an identical answer changes nothing. */
  readonly text: string | undefined
  /** A full payload from a poll (with its ETag and text) or a stream message (hydration or delta events). */
  apply(payload: unknown, polled?: { etag: string | undefined; text: string }): void
  report(outcome: SyncOutcome): void
  warn(message: string): void
}

/** `{ features: [...] }` or `{ events: [...] }`, as the engine's `load` takes them. */
export function isPayload(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false
  const payload = value as { features?: unknown; events?: unknown }
  return Array.isArray(payload.features) || Array.isArray(payload.events)
}

/** A thrown fetch error as text (a timeout says so). */
export function messageOf(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause
    const detail = cause instanceof Error ? ` (${cause.message})` : ''
    return error.name === 'TimeoutError' ? 'the request timed out' : `${error.message}${detail}`
  }
  return String(error)
}
