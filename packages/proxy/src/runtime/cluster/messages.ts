// What the cluster's primary and its workers say to each other over the IPC channel (WORKERS=N,
// docs/architecture.md, "Proxy: every core"). The primary is the only process that talks to the
// upstream; workers serve HTTP from what it sends and send back what they counted. Every message
// carries `vexil: 1` so messages of anything else on the channel are left alone.
import type { TraceCarrier } from '@vexil/server-kit/tracing'
import type { MetricObjectWithValues, MetricValue } from 'prom-client'
import type { PayloadSource } from '../../scope/flag-set.js'
import type { KnownToken, TokenScope } from '../../tokens/api-token.js'
import type { Refusal } from '../../tokens/token-registry.js'
import type { MetricsBucket } from '@vexil/sync'
import type { WorkerReadiness } from './cluster-readiness.js'

/** The static scope's key in `flags` and `usage` messages (a token scope's is `scopeKey`, which always has a `|`). */
export const STATIC_SCOPE_KEY = 'static'

/** The variable a worker is forked with: the cluster's one instance id, the primary's. */
export const CLUSTER_INSTANCE_ID = 'VEXIL_CLUSTER_INSTANCE_ID'

/** Primary → worker. */
export type PrimaryMessage =
  | { vexil: 1; type: 'token'; secret: string; token: KnownToken | undefined; invalidCount: number }
  /** A token scope got its own sync, made for `token`: the worker makes the same (scopes.learn). */
  | { vexil: 1; type: 'scope'; token: KnownToken }
  /** That sync ended (its token went, no other of its scope is known): the worker ends its copy. */
  | { vexil: 1; type: 'scope-end'; key: string }
  /** The scope the upstream gives SERVICE_API_TOKEN, whose token callers the static scope serves (undefined: none). */
  | { vexil: 1; type: 'static-scope'; scope: TokenScope | undefined }
  /** A scope's current flags: the full payload as its engine keeps it (a delta is never sent). */
  | { vexil: 1; type: 'flags'; key: string; payload: unknown; source: PayloadSource; etag: string | undefined }
  /** The end of the snapshot a new worker gets (tokens, scopes, flags, readiness). */
  | { vexil: 1; type: 'synced' }
  | { vexil: 1; type: 'resolved'; id: number; result: KnownToken | Refusal; invalidCount: number }
  /** Whether every worker serves flags for the static scope, and for every scope. */
  | { vexil: 1; type: 'cluster-ready'; static: boolean; all: boolean }
  /** Asks for the worker's own Prometheus figures, for a cluster-wide scrape. */
  | { vexil: 1; type: 'collect'; id: number }
  /** The cluster-wide scrape a worker asked for. */
  | { vexil: 1; type: 'scraped'; id: number; text: string }
  /** Stop accepting, finish the requests in flight, hand over the counts, exit. */
  | { vexil: 1; type: 'shutdown' }
  /** The final counts are merged: the worker may exit. */
  | { vexil: 1; type: 'bye' }

/** Worker → primary. */
export type WorkerMessage =
  /** The worker listens for messages: send it the snapshot. */
  | { vexil: 1; type: 'hello' }
  /** What the worker serves (cluster-readiness.ts), sent whenever it changes. */
  | ({ vexil: 1; type: 'state' } & WorkerReadiness)
  | { vexil: 1; type: 'usage'; key: string; bucket: MetricsBucket }
  /**
   * `caller`: whose share of the primary's validation queue the secret takes (caller-key.ts);
   * `trace`: the span of the request that asks (tracing), which the validation continues.
   */
  | { vexil: 1; type: 'resolve'; id: number; secret: string; caller: string; trace?: TraceCarrier }
  | { vexil: 1; type: 'scrape'; id: number }
  | { vexil: 1; type: 'collected'; id: number; metrics: Array<MetricObjectWithValues<MetricValue<string>>> }
  /** The worker has stopped serving and sent its last `usage`: answer `bye` once they are merged. */
  | { vexil: 1; type: 'closing' }

export function isClusterMessage<T extends PrimaryMessage | WorkerMessage>(message: unknown): message is T {
  return message !== null && typeof message === 'object' && (message as { vexil?: unknown }).vexil === 1
}

/** One end of the IPC channel (the worker's process, or a cluster.Worker in the primary). */
export interface Channel<Out> {
  send(message: Out): void
}
