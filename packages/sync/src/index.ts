// @vexil/sync: following an Unleash-compatible upstream, written once for the proxy and the
// OpenFeature provider. Framework-free: no server, no node:http; the backup file (node:fs) is
// its own entry, `@vexil/sync/files`.

// Timers (the runtime's, or due tasks run by hand where timers end with the request)
export { createDueTimers, type DueTimers, systemTimers, type TimerHandle, type Timers } from './timers.js'

// Logging
export type { SyncLogger } from './logger.js'

// Server-sent events
export { createEventStreamParser, type StreamEvent } from './event-stream-parser.js'

// The upstream: its client API over any transport, polling, streaming
export type {
  EventSourceHandlers,
  EventSourceOptions,
  HttpRequestOptions,
  HttpResponse,
  OpenEventSource,
  SendRequest,
  UpstreamCallKind,
  UpstreamCallObserver,
  UpstreamOutcome,
} from './upstream/http.js'
export { observedSend, StreamClosedError } from './upstream/http.js'
export { fetchEventSource, type FetchFunction, fetchRequest } from './upstream/fetch-transport.js'
export {
  createUpstreamClient,
  identityHeaders,
  type UpstreamClient,
  type UpstreamClientOptions,
} from './upstream/client.js'
export { isPayload, messageOf } from './upstream/answers.js'
export type { SyncOutcome, SyncTarget, UpstreamCandidate } from './upstream/sync-target.js'
export { createPoller, type Poller, type PollerOptions } from './upstream/poller.js'
export { createFeed, type FeedOptions } from './upstream/feed.js'

// Usage metrics: counting, bounding, splitting and reporting
export type { AppIdentity, AppRegistration, MetricsBucket, ToggleBucket, UsageBuckets } from './usage/metrics-bucket.js'
export {
  createUsageAggregator,
  MAX_OTHER_VARIANTS,
  MAX_VARIANT_NAME_LENGTH,
  type UsageAggregator,
  type UsageAggregatorOptions,
  type UsageDrops,
} from './usage/aggregator.js'
export {
  appKey,
  isKeepable,
  MAX_APPLICATIONS,
  MAX_CONNECT_VIA,
  MAX_NAME_LENGTH,
  MAX_UNKNOWN_FLAGS,
} from './usage/app-limits.js'
export { type FlagUsage, UsageCounter } from './usage/usage-counter.js'
export { type KnownFlags, knownFlags } from './usage/known-flags.js'
export { type SendOutcome, sendOutcome } from './usage/send-outcome.js'
export { splitBucket } from './usage/split-bucket.js'
export {
  createUsageReporter,
  METRICS_SEND_LIMIT_BYTES,
  type UsageReporter,
  type UsageReporterOptions,
  type UsageUpstream,
} from './usage/reporter.js'

// The OpenFeature context mapping
export { type EvaluationContextLike, toUnleashContext } from './openfeature-context.js'
