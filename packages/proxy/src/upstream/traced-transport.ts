// Upstream calls with a CLIENT span each (OpenTelemetry, when configured: @vexil/server-kit/tracing):
// every call the client makes (features, registration, metrics, token validation, bootstrap)
// carries the span's `traceparent`, so the upstream (Unleash, another Vexil) continues the trace.
// A call a request causes (a new token's validation) is a child of that request's span.
// A stream's span covers its connection: it ends when the upstream answers, or fails to.
import type { OpenEventSource, SendRequest } from '@vexil/sync'
import type { TraceCarrier, Tracing } from '@vexil/server-kit/tracing'

/** `send`, a CLIENT span per call; `causes`: the spans of the requests the calls are made for (Tracing.clientSpan). */
export function tracedSend(send: SendRequest, tracing: Tracing, causes?: readonly TraceCarrier[]): SendRequest {
  return async (url, options) => {
    const span = tracing.clientSpan(options.method, url, causes)
    try {
      const response = await send(url, { ...options, headers: { ...options.headers, ...span.headers } })
      span.end(response.status)
      return response
    } catch (error) {
      span.end(undefined, error)
      throw error
    }
  }
}

export function tracedEventSource(open: OpenEventSource, tracing: Tracing): OpenEventSource {
  return (url, options, handlers) => {
    const span = tracing.clientSpan('GET', url)
    return open(
      url,
      { ...options, headers: { ...options.headers, ...span.headers } },
      {
        ...handlers,
        onOpen(status, headers) {
          span.end(status)
          handlers.onOpen(status, headers)
        },
        onClose(error) {
          span.end(undefined, error)
          handlers.onClose(error)
        },
      },
    )
  }
}
