// Who is told of each request once it closes (@vexil/server-kit's request-observer.ts), from the configuration:
// the Prometheus request metrics while the metrics routes are served, the request log when it is on.
// Tracing adds its observer here.
import type { ProxyConfig } from './config/types.js'
import type { RequestObserver } from '@vexil/server-kit'
import type { PrometheusExporter } from './prometheus.js'
import { createRequestLog } from './request-log.js'
import type { RouteDescription } from './routing/route-declaration.js'

const KEY_ACCESS = new Set(['client-key', 'client-key-or-server-token', 'client-key-or-frontend-token'])

export function requestObserversFor(
  config: Pick<ProxyConfig, 'metricsEndpoint' | 'requestLog'>,
  prometheus: Pick<PrometheusExporter, 'requestMetrics'>,
  routes: readonly RouteDescription[],
): RequestObserver[] {
  const keyRoutes = new Set(routes.filter((route) => KEY_ACCESS.has(route.access)).map((route) => route.path))
  return [
    ...(config.metricsEndpoint ? [prometheus.requestMetrics] : []),
    ...(config.requestLog ? [createRequestLog(config.requestLog, keyRoutes)] : []),
  ]
}
