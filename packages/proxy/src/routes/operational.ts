// GET /proxy/health and /proxy/internal-backstage/prometheus (docs/old-proxy-compatibility.md 1.1):
// open to anyone, as in the old proxy (load balancers and scrapers hold no key), and 503 until
// the proxy has flags (with WORKERS=N: until every worker has them). Neither reveals flag
// configuration. DISABLE_METRICS_ENDPOINT leaves the Prometheus route out (404), as Edge does.
import { ProxyError } from '../http/errors.js'
import { sendText } from '../http/respond.js'
import type { RouteDeclaration } from '../routing/route-declaration.js'
import type { MetricsSource } from '../scope/upstream-sync.js'

const HTML = 'text/html; charset=utf-8'

/**
 * `registry`: undefined when the Prometheus route is turned off. `healthy`: the static scope has
 * flags everywhere it is served. The router already answers 503 while this process has none; in
 * a cluster another worker may not have them yet.
 */
export function operationalRoutes(registry: MetricsSource | undefined, healthy: () => boolean): RouteDeclaration[] {
  const health: RouteDeclaration = {
    methods: ['GET', 'HEAD'],
    path: '/proxy/health',
    access: 'open',
    waitsForFlags: true,
    example: { status: 200 },
    handle: (event) => {
      if (!healthy()) throw new ProxyError('NOT_READY', 'not ready')
      sendText(event.node.res, 200, HTML, 'ok', event.method === 'HEAD')
    },
  }
  if (!registry) return [health]
  return [
    health,
    {
      methods: ['GET', 'HEAD'],
      path: '/proxy/internal-backstage/prometheus',
      access: 'open',
      waitsForFlags: true,
      example: { status: 200 },
      handle: async (event) =>
        sendText(event.node.res, 200, registry.contentType, await registry.metrics(), event.method === 'HEAD'),
    },
  ]
}
