// The upstream calls made, by kind and outcome, in plain numbers (@vexil/sync's client and the
// proxy's /edge/validate tell them as they end); Prometheus reads them when scraped.
import type { UpstreamCallKind, UpstreamCallObserver, UpstreamOutcome } from '@vexil/sync'

export const UPSTREAM_CALL_KINDS: readonly UpstreamCallKind[] = [
  'features',
  'validation',
  'metrics',
  'streaming',
  'register',
]
export const UPSTREAM_OUTCOMES: readonly UpstreamOutcome[] = [
  'ok',
  'not_modified',
  'client_error',
  'server_error',
  'network_error',
]

export interface UpstreamCalls {
  readonly observe: UpstreamCallObserver
  /** How many calls of `kind` ended with `outcome` since start. */
  count(kind: UpstreamCallKind, outcome: UpstreamOutcome): number
}

export function createUpstreamCalls(): UpstreamCalls {
  const counts = Object.fromEntries(
    UPSTREAM_CALL_KINDS.map((kind) => [kind, Object.fromEntries(UPSTREAM_OUTCOMES.map((outcome) => [outcome, 0]))]),
  ) as Record<UpstreamCallKind, Record<UpstreamOutcome, number>>
  return {
    observe: (kind, outcome) => void counts[kind][outcome]++,
    count: (kind, outcome) => counts[kind][outcome],
  }
}
