import { eventHandler } from 'h3'
import type { ServiceContext } from '../../service-context.js'
import type { ApiRouter } from '../api-router.js'

/**
 * `GET /api/admin/ui-config` (Unleash's route for what its UI needs to know; ADMIN, since it holds
 * the proxy's client key): this service's URL and the proxy SDKs use, for the UI's setup snippets.
 */
export function registerUiConfigRoutes(api: ApiRouter, ctx: ServiceContext): void {
  api.get(
    '/api/admin/ui-config',
    'admin',
    eventHandler((event) => ({
      unleashUrl: ctx.config.publicUrl ?? `http://localhost:${event.node.req.socket.localPort ?? ctx.config.port}`,
      proxy: { url: ctx.config.proxy.url ?? null, clientKey: ctx.config.proxy.clientKey ?? null },
    })),
  )
}
