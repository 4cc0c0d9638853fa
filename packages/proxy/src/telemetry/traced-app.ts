// The proxy's traces, when OTEL_* asks for them (@vexil/server-kit/tracing): a SERVER span per
// request, made from the record the request handler gives its observers once the answer is
// over, and upstream clients that make a CLIENT span per call and send its traceparent. A request
// that causes an upstream call (a new token's validation) has its span started then, so the call
// is its child: the span's context goes with the call by hand, to the cluster's primary too.
import type { H3Event } from 'h3'
import type { TraceCarrier, Tracing } from '@vexil/server-kit/tracing'
import type { RequestObserver } from '@vexil/server-kit'

/** The span context of the request `event`, its SERVER span started now if it was not yet. */
export type RequestTrace = (event: H3Event) => TraceCarrier

/** createProxyApp's options that trace: the tracing its upstream clients use, a request observer, the requests' span contexts. */
export interface TracedAppOptions {
  tracing: Tracing
  requestObservers: RequestObserver[]
  requestTrace: RequestTrace
}

export function tracedAppOptions(tracing: Tracing): TracedAppOptions {
  return { tracing, requestObservers: [serverSpans(tracing)], requestTrace: requestTrace(tracing) }
}

/** A SERVER span per request: its declared route, method and status, under the caller's traceparent. */
export function serverSpans(tracing: Tracing): RequestObserver {
  return (record, event) => {
    const started = event.context.serverSpan
    if (started) started.end(record)
    else tracing.serverSpan(record, event.node.req.headers)
  }
}

function requestTrace(tracing: Tracing): RequestTrace {
  return (event) =>
    (event.context.serverSpan ??= tracing.startServerSpan(
      event.node.req.headers,
      performance.timeOrigin + performance.now(),
    )).carrier
}
