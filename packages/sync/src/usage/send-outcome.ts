// What to do with a batch of metrics after the upstream's answer. Refusals that say "not now"
// or "not with these credentials" keep the counts for a later send; a refusal of the batch
// itself (400, 404, 413, 422, …) would be repeated word for word, and kept counts would grow
// into every later batch, so that batch is dropped and logged.
export type SendOutcome = 'sent' | 'retry' | 'retry-after-auth' | 'drop'

/** For an HTTP status; a network error is `retry`. */
export function sendOutcome(status: number): SendOutcome {
  if (status >= 200 && status < 300) return 'sent'
  if (status === 401 || status === 403) return 'retry-after-auth'
  if (status === 408 || status === 429) return 'retry'
  if (status >= 400 && status < 500) return 'drop'
  return 'retry'
}
