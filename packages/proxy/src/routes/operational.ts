// GET /proxy/health and /proxy/internal-backstage/prometheus (docs/old-proxy-compatibility.md 1.1):
// open to anyone, as in the old proxy (load balancers and scrapers hold no key), and 503 until
// the proxy has flags. Neither reveals flag configuration.
import type { Registry } from 'prom-client'
import { sendText } from '../http/respond.js'
import type { RouteDeclaration } from '../routing/route-declaration.js'

const HTML = 'text/html; charset=utf-8'

export function operationalRoutes(registry: Registry): RouteDeclaration[] {
  return [
    {
      methods: ['GET', 'HEAD'],
      path: '/proxy/health',
      access: 'open',
      waitsForFlags: true,
      example: { status: 200 },
      handle: ({ res, method }) => sendText(res, 200, HTML, 'ok', method === 'HEAD'),
    },
    {
      methods: ['GET', 'HEAD'],
      path: '/proxy/internal-backstage/prometheus',
      access: 'open',
      waitsForFlags: true,
      example: { status: 200 },
      handle: async ({ res, method }) => sendText(res, 200, registry.contentType, await registry.metrics(), method === 'HEAD'),
    },
  ]
}
