// The service's traces, when OTEL_* asks for them (@vexil/server-kit/tracing): a SERVER span per
// request once its answer is over, named by the API route the router matched (its declared path,
// so the label set is the route table's) and parented by the caller's traceparent (a proxy's
// poll or validation continues its trace here). Requests no route took (the admin UI's files, a
// 404) are named by their method alone.
import { type EventHandler, eventHandler, type H3Event } from 'h3'
import type { Tracing } from '@vexil/server-kit/tracing'
import type { RouteSpec } from './api-router.js'

/** The app's first handler: times the request and records its span when the response closes. */
export function traceRequests(tracing: Tracing): EventHandler {
  return eventHandler((event) => {
    const startedAt = performance.now()
    const startedAtEpochMs = Date.now()
    const { req, res } = event.node
    res.once('close', () => {
      tracing.serverSpan(
        {
          method: req.method ?? 'GET',
          route: event.context.tracedRoute as string | undefined,
          status: res.statusCode,
          aborted: !res.writableFinished,
          startedAtEpochMs,
          durationMs: performance.now() - startedAt,
        },
        req.headers,
      )
    })
  })
}

/** The router's hook, noting the matched route for the span before passing it on. */
export function noteTracedRoute(
  next: ((route: RouteSpec, event: H3Event) => void) | undefined,
): (route: RouteSpec, event: H3Event) => void {
  return (route, event) => {
    event.context.tracedRoute = route.path
    next?.(route, event)
  }
}
