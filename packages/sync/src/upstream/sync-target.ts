// What the poller and the stream hand their results to: the proxy's scope flags
// (scope/scope-flags.ts there) and the OpenFeature provider implement it. Payloads are offered,
// never imposed: the target decides what it keeps.

/** A payload the upstream sent: a poll's (with its ETag and text) or a stream message's. */
export interface UpstreamCandidate {
  payload: unknown
  source: 'upstream'
  /** The poll's ETag, the next poll's If-None-Match (a stream message has none). */
  etag?: string | undefined
  /** The poll's body as sent, so a target can tell an identical answer apart cheaply. */
  text?: string | undefined
}

export interface SyncTarget {
  /** The flags held, if any; their ETag is the next poll's If-None-Match. */
  readonly current: { readonly etag?: string | undefined } | undefined
  offer(candidate: UpstreamCandidate): unknown
}

/** How one attempt to get flags went. */
export type SyncOutcome =
  | { ok: true }
  /** `status`: the HTTP status when the upstream answered, undefined for a network error or timeout. */
  | { ok: false; status: number | undefined; message: string }
