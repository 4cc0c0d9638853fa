import { type App, createApp, createError, eventHandler, type H3Event } from 'h3'
import type { Tracing } from '@vexil/server-kit/tracing'
import type { ActionRunner } from './actions/runner.js'
import { createAuthorizer } from './auth.js'
import { bodyLimit } from './request-body.js'
import type { ServiceConfig } from './config.js'
import type { Clock, ServiceContext } from './service-context.js'
import type { Database } from './db/database.js'
import { sendServiceError } from './http-errors.js'
import { type Logger, serviceLogger } from './logger.js'
import { registerActionRoutes } from './routes/admin/actions.js'
import { registerApiTokenRoutes } from './routes/admin/api-tokens.js'
import { registerArchiveRoutes } from './routes/admin/archive.js'
import { registerCloneRoutes } from './routes/admin/clone.js'
import { registerDefaultStrategyRoutes } from './routes/admin/default-strategies.js'
import { registerDependencyRoutes } from './routes/admin/dependencies.js'
import { registerEnvironmentRoutes } from './routes/admin/environments.js'
import { registerEventRoutes } from './routes/admin/events.js'
import { registerFeatureEnvironmentRoutes } from './routes/admin/feature-environments.js'
import { registerFeatureTagRoutes } from './routes/admin/feature-tags.js'
import { registerFeatureRoutes } from './routes/admin/features.js'
import { registerInsightsRoutes } from './routes/admin/insights.js'
import { registerMetricsRoutes } from './routes/admin/metrics.js'
import { registerPersonalTokenRoutes } from './routes/admin/personal-tokens.js'
import { registerPlaygroundRoutes } from './routes/admin/playground.js'
import { registerProjectRoutes } from './routes/admin/projects.js'
import { registerSegmentRoutes } from './routes/admin/segments.js'
import { registerSignalEndpointRoutes } from './routes/admin/signal-endpoints.js'
import { registerSignalRoutes } from './routes/admin/signals.js'
import { registerStrategyRoutes } from './routes/admin/strategies.js'
import { registerTagRoutes } from './routes/admin/tags.js'
import { registerUiConfigRoutes } from './routes/admin/ui-config.js'
import { registerUserRoutes } from './routes/admin/users.js'
import { registerVariantRoutes } from './routes/admin/variants.js'
import { registerClientFeatureRoutes } from './routes/client/features.js'
import { registerClientMetricsRoutes } from './routes/client/metrics.js'
import { registerClientStreamingRoutes } from './routes/client/streaming.js'
import { type ClientStreams, createClientStreams } from './client-streams.js'
import { registerEdgeRoutes } from './routes/edge.js'
import { registerHealthRoutes } from './routes/health.js'
import { registerSignalIngestRoutes } from './routes/signal-ingest.js'
import { createUiHandler } from './routes/ui.js'
import { type ApiRouter, createApiRouter, type RouteSpec } from './routes/api-router.js'
import { assertCanonicalPath } from './request-path.js'
import { noteTracedRoute, traceRequests } from './routes/request-tracing.js'

export interface ServiceAppOptions {
  /** A migrated database (see `migrate`). */
  db: Database
  config: ServiceConfig
  logger?: Logger
  /** "Now" for every timestamp the service writes; defaults to the system clock. */
  clock?: Clock
  /** Runs actions on stored signals (`createActionRunner`); without one, signals wait in the queue. */
  actionRunner?: Pick<ActionRunner, 'wake'>
  /** The built admin UI served at `/` (default: this package's `dist/ui`). */
  uiDir?: string
  /** Told of each API route whose handler is about to run, its access check passed (tests, tracing). */
  onRouteHandled?: (route: RouteSpec, event: H3Event) => void
  /** A SERVER span per request (the caller started the SDK: @vexil/server-kit/tracing). */
  tracing?: Tracing
}

/** Every route module, each registering its routes with their access (routes/api-router.ts). */
const ROUTE_MODULES: ((api: ApiRouter, ctx: ServiceContext) => void)[] = [
  registerHealthRoutes,
  registerClientFeatureRoutes,
  registerClientMetricsRoutes,
  registerEdgeRoutes,
  registerProjectRoutes,
  registerDefaultStrategyRoutes,
  registerEnvironmentRoutes,
  registerFeatureRoutes,
  registerCloneRoutes,
  registerFeatureEnvironmentRoutes,
  registerStrategyRoutes,
  registerVariantRoutes,
  registerDependencyRoutes,
  registerArchiveRoutes,
  registerSegmentRoutes,
  registerTagRoutes,
  registerFeatureTagRoutes,
  registerUserRoutes,
  registerPersonalTokenRoutes,
  registerApiTokenRoutes,
  registerEventRoutes,
  registerMetricsRoutes,
  registerInsightsRoutes,
  registerSignalEndpointRoutes,
  registerSignalRoutes,
  registerActionRoutes,
  registerPlaygroundRoutes,
  registerUiConfigRoutes,
]

/** The h3 app, its route table (method, path, access of every API route), and its open streams. */
interface ServiceApp {
  app: App
  routes: readonly RouteSpec[]
  /** `/api/client/streaming` connections; `close()` them before the server stops. */
  streams: ClientStreams
}

/**
 * The service as an h3 app: health, the client API, the admin API and the admin UI. It listens on nothing;
 * `startService` (or a test) mounts it on a server.
 */
export function createServiceApp(options: ServiceAppOptions): App {
  return createServiceAppWithRoutes(options).app
}

/**
 * `createServiceApp`, with the route table beside the app. Every request passes, in order: the
 * path check (400 for a path that reads two ways), the body limit, then the router, whose every
 * route checks its declared access before its handler; the admin UI takes the GETs left over.
 */
export function createServiceAppWithRoutes(options: ServiceAppOptions): ServiceApp {
  const ctx: ServiceContext = {
    db: options.db,
    config: options.config,
    logger: options.logger ?? serviceLogger(options.config),
    clock: options.clock ?? (() => new Date()),
  }
  const app = createApp({ onError: (error, event) => sendServiceError(event, error, ctx.logger) })
  if (options.tracing) app.use(traceRequests(options.tracing, ctx.logger))
  app.use(eventHandler(assertCanonicalPath))
  app.use(eventHandler(bodyLimit))
  const onRouteHandled = options.tracing ? noteTracedRoute(options.onRouteHandled) : options.onRouteHandled
  const { api, handler } = createApiRouter(createAuthorizer(ctx), onRouteHandled)
  for (const register of ROUTE_MODULES) register(api, ctx)
  const streams = createClientStreams({
    db: ctx.db,
    logger: ctx.logger,
    clock: ctx.clock,
    config: ctx.config.streaming,
  })
  registerClientStreamingRoutes(api, ctx, streams)
  registerSignalIngestRoutes(api, ctx, options.actionRunner)
  app.use(handler)
  // Last: the admin UI answers only GET/HEAD paths that no API route took (and never /api/*).
  app.use(createUiHandler(options.uiDir ? { root: options.uiDir } : {}))
  // What nothing took: a plain 404, whose message sendServiceError writes, not h3's own with the
  // path in its status message (see api-router.ts).
  app.use(
    eventHandler(() => {
      throw createError({ statusCode: 404 })
    }),
  )
  return { app, routes: api.routes, streams }
}
