// The service's traces, when OTEL_* asks for them (@vexil/server-kit/tracing): a SERVER span per
// request once its answer is over (@vexil/server-kit's request observer), named by the API route
// the router matched (its declared path, so the label set is the route table's) and parented by
// the caller's traceparent (a proxy's poll or validation continues its trace here). Requests no
// route took (the admin UI's files, a 404) are named by their method alone.
import { type EventHandler, eventHandler, type H3Event } from 'h3'
import { type Logger, observeRequest, type RequestObserver, serverSpans } from '@vexil/server-kit'
import type { Tracing } from '@vexil/server-kit/tracing'
import type { RouteSpec } from './api-router.js'

/** The app's first handler: records each request's span when its response closes. */
export function traceRequests(tracing: Tracing, logger: Pick<Logger, 'error'>): EventHandler {
  const observers: RequestObserver[] = [serverSpans(tracing)]
  const onError = (error: unknown) => logger.error('A request observer failed', error)
  return eventHandler((event) => observeRequest(event, observers, onError))
}

/** The router's hook, noting the matched route for the span before passing it on. */
export function noteTracedRoute(
  next: ((route: RouteSpec, event: H3Event) => void) | undefined,
): (route: RouteSpec, event: H3Event) => void {
  return (route, event) => {
    event.context.route = route.path
    next?.(route, event)
  }
}
