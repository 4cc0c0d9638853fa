// Both servers' SERVER spans (tracing/: OTEL_*), made from the request observer's record (request-observer.ts)
// once a request is over, and the span context a request hands the upstream calls it causes (a
// new token's validation): for those, the span is started early, at the request's arrival, and
// ended by the same observer, so no span is left open. No OpenTelemetry module is imported here:
// the Worker's bundle takes the package's main entry.
import type { H3Event } from 'h3'
import type { RequestObserver } from './request-observer.js'
import type { StartedServerSpan, TraceCarrier, Tracing } from './tracing/tracing.js'

declare module 'h3' {
  interface H3EventContext {
    /** The request's SERVER span, when it was started before the request ended (`requestTrace`). */
    serverSpan?: StartedServerSpan
  }
}

/** The span context of the request `event`, its SERVER span started if it was not yet. */
export type RequestTrace = (event: H3Event) => TraceCarrier

/** A SERVER span per request: its declared route, method and status, under the caller's traceparent. */
export function serverSpans(tracing: Tracing): RequestObserver {
  return (record, event) => {
    const started = event.context.serverSpan
    if (started) started.end(record)
    else tracing.serverSpan(record, event.node.req.headers)
  }
}

/** For a server whose observers include `serverSpans(tracing)`, which ends what this starts. */
export function requestTrace(tracing: Tracing): RequestTrace {
  return (event) => {
    const arrived = event.context.requestStartedAt ?? performance.now()
    event.context.serverSpan ??= tracing.startServerSpan(event.node.req.headers, performance.timeOrigin + arrived)
    return event.context.serverSpan.carrier
  }
}
