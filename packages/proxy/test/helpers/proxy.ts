// Starts a real listening proxy (node:http on 127.0.0.1, a free port) against a fake upstream.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { afterEach } from 'vitest'
import { type FakeUpstream, startFakeUpstream } from '@vexil/test-fixtures/fake-upstream.ts'
import type { AddressInfo } from 'node:net'
import {
  createProxyApp,
  createProxyConfig,
  type ProxyApp,
  type ProxyAppOptions,
  type ProxyOptions,
  type RouteDescription,
} from '@vexil/proxy'
import { createAppSync } from '../../src/app.js'
import type { CurrentFlags } from '../../src/scope/scope-flags.js'
import type { StorageProvider } from '../../src/storage/types.js'
import { createLogger, type Logger } from '../../src/logger.js'

export interface TestProxy {
  url: string
  /** `url` + path, e.g. `at('/proxy?userId=1')`. */
  at(path: string): string
  proxy: ProxyApp
  /** The static scope's current flag set, which ProxyApp does not show. */
  flags: CurrentFlags
  /** Every route, one entry per method, as the app declared it. */
  routes: readonly RouteDescription[]
  logs: string[]
  close(): Promise<void>
}

/**
 * createProxyApp over a sync the test keeps, to read what a user of the app never needs: the
 * static scope's flag sets (which source won, frozen sets, their response caches) and the routes
 * as declared. The sync is the app's own default (createAppSync), less Prometheus's count of
 * upstream fetches, which only the app can feed.
 */
export function createInspectedProxyApp(options: ProxyAppOptions): {
  proxy: ProxyApp
  flags: CurrentFlags
  routes: readonly RouteDescription[]
} {
  const sync = createAppSync(options)
  const routes: RouteDescription[] = []
  const proxy = createProxyApp({
    ...options,
    sync,
    instrumentRoute: (route, handle) => {
      for (const method of route.methods)
        routes.push({
          method,
          path: route.path,
          prefix: route.prefix ?? false,
          access: route.access,
          waitsForFlags: route.waitsForFlags,
          example: route.example,
        })
      return options.instrumentRoute?.(route, handle) ?? handle
    },
  })
  return { proxy, flags: sync.scope?.flags ?? { current: undefined }, routes }
}

export interface TestProxyOptions extends ProxyOptions {
  storage?: StorageProvider | null
  /** Wait until ready (default true). */
  waitReady?: boolean
  env?: Record<string, string>
  /** Sees every request before the proxy does (to record what reached it, and its answer). */
  onRequest?: (req: IncomingMessage, res: ServerResponse) => void
  /** Wraps each route's handler (the authorization matrix spies on handlers with it). */
  instrumentRoute?: ProxyAppOptions['instrumentRoute']
  /** Told of every request once its response closes. */
  requestObservers?: ProxyAppOptions['requestObservers']
}

export const CLIENT_KEY = 'client-key-123'

export function memoryLogger(logs: string[]): Logger {
  return createLogger({ level: 'debug', json: false, write: (line) => logs.push(line) })
}

export async function startTestProxy(upstreamUrl: string, options: TestProxyOptions = {}): Promise<TestProxy> {
  const {
    storage = null,
    waitReady = true,
    env = {},
    onRequest,
    instrumentRoute,
    requestObservers,
    ...proxyOptions
  } = options
  const logs: string[] = []
  const config = await createProxyConfig(
    {
      serviceUrl: upstreamUrl,
      serviceApiToken: 'upstream-token-secret',
      clientKeys: [CLIENT_KEY],
      refreshInterval: 60_000,
      metricsInterval: 0,
      logger: memoryLogger(logs),
      ...proxyOptions,
    },
    env,
  )
  const { proxy, flags, routes } = createInspectedProxyApp({ config, storage, instrumentRoute, requestObservers })
  const server: Server = createServer(
    onRequest
      ? (req, res) => {
          onRequest(req, res)
          proxy.listener(req, res)
        }
      : proxy.listener,
  )
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const started = proxy.start()
  if (waitReady) {
    await started
    const deadline = Date.now() + 10_000
    while (!proxy.ready && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10))
  }
  return {
    url,
    at: (path) => `${url}${path}`,
    proxy,
    flags,
    routes,
    logs,
    async close() {
      await proxy.close()
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

/**
 * Fake upstreams and proxies for one test file, each stopped after the test that started it
 * (call in the file's top level: it registers an afterEach).
 */
export function useServers() {
  const cleanup: Array<() => Promise<void> | void> = []
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step()
  })
  return {
    /** Runs `step` after the current test. */
    defer(step: () => Promise<void> | void): void {
      cleanup.push(step)
    },
    async upstream(initial?: unknown): Promise<FakeUpstream> {
      const upstream = await startFakeUpstream(initial)
      cleanup.push(() => upstream.close())
      return upstream
    },
    async proxy(upstream: FakeUpstream, options: TestProxyOptions = {}): Promise<TestProxy> {
      const proxy = await startTestProxy(upstream.url, options)
      cleanup.push(() => proxy.close())
      return proxy
    },
  }
}

/**
 * A fake upstream serving `features` to a client token and knowing a frontend token, both of
 * `environment` and every project: what a proxy needs to answer both kinds of caller.
 */
export async function startUpstreamWithTokens(
  features: unknown,
  tokens: { client: string; frontend: string },
  environment = 'development',
): Promise<FakeUpstream> {
  const upstream = await startFakeUpstream(features)
  upstream.setFeaturesFor(tokens.client, features)
  upstream.setValidTokens([
    { token: tokens.client, type: 'client', environment, projects: ['*'] },
    { token: tokens.frontend, type: 'frontend', environment, projects: ['*'] },
  ])
  return upstream
}
