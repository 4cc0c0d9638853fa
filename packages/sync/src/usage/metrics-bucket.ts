// The bucket of `POST /client/metrics`, as Unleash SDKs send it.

export interface MetricsBucket {
  start: string
  stop: string
  toggles: Record<string, { yes: number; no: number; variants: Record<string, number> }>
}

/** What a reporter sends from: a counter hands over its bucket and takes back one that failed to send. */
export interface UsageBuckets {
  /** Takes the current bucket (undefined when empty) and starts a new one at `now`. */
  take(now: Date): MetricsBucket | undefined
  /** Puts back a bucket that failed to send: its counts are added, its start kept. */
  restore(bucket: MetricsBucket): void
}
