// The proxy's traces, when OTEL_* asks for them (@vexil/server-kit/tracing): a SERVER span per
// request, made from the record the request handler gives its observers once the answer is
// over, and upstream clients that make a CLIENT span per call and send its traceparent.
import type { Tracing } from '@vexil/server-kit/tracing'
import type { RequestObserver } from '../http/request-observer.js'

/** createProxyApp's options that trace: the tracing its upstream clients use, and a request observer. */
export interface TracedAppOptions {
  tracing: Tracing
  requestObservers: RequestObserver[]
}

export function tracedAppOptions(tracing: Tracing): TracedAppOptions {
  return { tracing, requestObservers: [serverSpans(tracing)] }
}

/** A SERVER span per request: its declared route, method and status, under the caller's traceparent. */
export function serverSpans(tracing: Tracing): RequestObserver {
  return (record, event) => tracing.serverSpan(record, event.node.req.headers)
}
