import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { toNodeListener } from 'h3'
import type { Tracing } from '@vexil/server-kit/tracing'
import { type ActionRunner, createActionRunner } from './actions/runner.js'
import { createServiceAppWithRoutes } from './app.js'
import { parseServiceConfig, type ProxyAddress } from './config.js'
import type { Clock } from './service-context.js'
import { openDatabase } from './db/open.js'
import { migrate } from './db/migrate.js'
import { createInsightsScheduler, type InsightsTimers } from './insights/scheduler.js'
import { syncInitApiTokens } from './domain/init-api-tokens.js'
import { type Logger, serviceLogger } from './logger.js'
import { type DemoCredentials, seedDemo } from './seed/demo.js'

export interface StartServiceOptions {
  /** Listening port; `0` picks a free one. Default: `PORT`, else 4242. */
  port?: number
  /** Listening address. Default: `HOST`, else `0.0.0.0`. */
  host?: string
  /** A PostgreSQL server. Default: `DATABASE_URL`; unset means PGlite in `dataDir`. */
  databaseUrl?: string
  /** PGlite's data folder (and the demo credentials file). Default: `DATA_DIR`, else `./.vexil/data`. */
  dataDir?: string
  /** Seed the demo project on first run and return demo credentials. */
  seedDemo?: boolean
  /** Where the service logs, the INIT_* token secrets and the database password redacted. Default: its own lines at `LOG_LEVEL`. */
  logger?: Logger
  clock?: Clock
  /** Timers of the insights snapshot scheduler; tests pass ones they advance. Default: Node's. */
  timers?: InsightsTimers
  /** Environment variables to read instead of `process.env`. */
  env?: NodeJS.ProcessEnv
  /** How long a client may take to send its headers, and its whole request (tests shorten them). */
  timeouts?: Partial<HttpTimeouts>
  /** The built admin UI to serve. Default: dist/ui of this package. */
  uiDir?: string
  /** A SERVER span per request (the caller started the SDK: @vexil/server-kit/tracing). */
  tracing?: Tracing
}

interface HttpTimeouts {
  headersMs: number
  requestMs: number
}

/**
 * A slow-header (slowloris) client is cut off after 10 s, a whole request after 30 s. Node's
 * defaults (60 s and 300 s, checked every 30 s) let a few such sockets hold connections 70-90 s.
 */
export const HTTP_TIMEOUTS: HttpTimeouts = { headersMs: 10_000, requestMs: 30_000 }

export interface RunningService {
  /** Base URL, e.g. `http://127.0.0.1:4242`. */
  url: string
  port: number
  /** The address listened on (`HOST`); `url` names loopback when it is every interface. */
  host: string
  demo?: DemoCredentials
  /** Takes (or retakes) today's insights snapshot now, besides the daily run. */
  snapshotInsights(): Promise<void>
  /** Tells the admin UI where the proxy SDKs use is, and its `/proxy` client key (`vexil start`, once its proxy listens). */
  announceProxy(proxy: ProxyAddress): void
  /** Stops the insights scheduler, stops accepting requests, lets in-flight ones finish, then closes (and flushes) the database. */
  close(): Promise<void>
}

const CLOSE_GRACE_MS = 5_000

/**
 * Starts the service: opens the database (PGlite or PostgreSQL), migrates it, makes the API
 * tokens from INIT_* match those variables, optionally seeds the demo, starts the action runner,
 * listens, and starts the insights scheduler (today's snapshot when missing, then daily).
 */
export async function startService(options: StartServiceOptions = {}): Promise<RunningService> {
  const config = parseServiceConfig(options.env ?? process.env, {
    ...(options.port !== undefined ? { port: options.port } : {}),
    ...(options.host !== undefined ? { host: options.host } : {}),
    ...(options.databaseUrl !== undefined ? { databaseUrl: options.databaseUrl } : {}),
    ...(options.dataDir !== undefined ? { dataDir: options.dataDir } : {}),
  })
  const logger = serviceLogger(config, options.logger)
  const clock = options.clock ?? (() => new Date())
  const db = await openDatabase(
    config.databaseUrl ? { databaseUrl: config.databaseUrl } : { dataDir: config.dataDir, logger },
  )
  let actionRunner: ActionRunner | undefined
  try {
    const { applied } = await migrate(db)
    if (applied.length > 0) logger.info(`database migrated to version ${applied.at(-1)} (${db.driver})`)
    await syncInitApiTokens(db, config, clock, logger)
    const demo = options.seedDemo ? await seedDemo(db, { dataDir: config.dataDir, clock }) : undefined
    actionRunner = createActionRunner({ db, logger, clock, sweepIntervalMs: config.signals.sweepIntervalMs })
    const timeouts = { ...HTTP_TIMEOUTS, ...options.timeouts }
    const { app, streams } = createServiceAppWithRoutes({
      db,
      config,
      logger,
      clock,
      actionRunner,
      ...(options.uiDir ? { uiDir: options.uiDir } : {}),
      ...(options.tracing ? { tracing: options.tracing } : {}),
    })
    const server = createServer(
      {
        headersTimeout: timeouts.headersMs,
        requestTimeout: timeouts.requestMs,
        // How often Node looks for connections past those timeouts (its default, 30 s, is longer than both).
        connectionsCheckingInterval: Math.min(1_000, timeouts.headersMs),
      },
      toNodeListener(app),
    )
    const port = await listen(server, config.port, config.host)
    const insights = createInsightsScheduler({
      db,
      clock,
      logger,
      ...(options.timers ? { timers: options.timers } : {}),
    })
    await insights.start()
    const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host
    let closing: Promise<void> | undefined
    const runner = actionRunner
    return {
      url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
      port,
      host: config.host,
      ...(demo ? { demo } : {}),
      snapshotInsights: () => insights.runNow(),
      announceProxy: (proxy) => void Object.assign(config.proxy, proxy),
      // The scheduler and the runner stop (their work in flight done) before the database closes.
      // Open streams end first: their SDKs reconnect (to another instance) with their Last-Event-ID.
      close: () =>
        (closing ??= Promise.all([insights.stop(), streams.close()]).then(() =>
          stop(server, async () => {
            await runner.close()
            await db.close()
          }),
        )),
    }
  } catch (error) {
    await actionRunner?.close()
    await db.close()
    throw error
  }
}

// --- Internal helpers ---

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve((server.address() as AddressInfo).port)
    })
  })
}

async function stop(server: Server, closeDatabase: () => Promise<void>): Promise<void> {
  await new Promise<void>((resolve) => {
    const force = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS)
    server.close(() => {
      clearTimeout(force)
      resolve()
    })
    server.closeIdleConnections()
  })
  await closeDatabase()
}
