// What a server tells observers about each request once it is over: the proxy's Prometheus
// metrics, its request log and both servers' OpenTelemetry spans all read the same record. The
// router notes the declared route it matched in `event.context.route`. With no observer, a
// server adds nothing to a request.
import type { H3Event } from 'h3'

declare module 'h3' {
  interface H3EventContext {
    /** The declared path of the route that matched, for observers; undefined when none did. */
    route?: string
    /** `performance.now()` when the request arrived (set when it has observers). */
    requestStartedAt?: number
  }
}

/** A request as it ended: routed, answered (or aborted), timed. */
export interface RequestRecord {
  method: string
  /** The declared path of the route that matched (`/proxy`, `/api/client/features/:name`, ...); undefined when none did (404). */
  route: string | undefined
  /** The status sent; for an aborted request, the status it would have had. */
  status: number
  /** True when the client went away before the answer ended. */
  aborted: boolean
  /** `performance.now()` when the request arrived, and its duration in milliseconds. */
  startedAt: number
  durationMs: number
  /** Epoch milliseconds when the request arrived (for exporters that want wall time). */
  startedAtEpochMs: number
}

/** Called once per request, after its response closed; the event carries the request's headers and `context`. */
export type RequestObserver = (record: RequestRecord, event: H3Event) => void

/** Calls each observer once the response closes; a throwing observer is logged, never the request's problem. */
export function observeRequest(
  event: H3Event,
  observers: readonly RequestObserver[],
  onObserverError: (error: unknown) => void,
): void {
  const startedAt = performance.now()
  event.context.requestStartedAt = startedAt
  const { req, res } = event.node
  // 'close' is emitted once per response; `on` spares `once`'s wrapper.
  res.on('close', () => {
    const record: RequestRecord = {
      method: req.method ?? 'GET',
      route: event.context.route,
      status: res.statusCode,
      aborted: !res.writableFinished,
      startedAt,
      durationMs: performance.now() - startedAt,
      startedAtEpochMs: performance.timeOrigin + startedAt,
    }
    for (const observer of observers) {
      try {
        observer(record, event)
      } catch (error) {
        onObserverError(error)
      }
    }
  })
}
