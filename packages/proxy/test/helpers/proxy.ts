// Starts a real listening proxy (node:http on 127.0.0.1, a free port) against a fake upstream.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { afterEach } from 'vitest'
import { type FakeUpstream, startFakeUpstream } from '@vexil/test-fixtures/fake-upstream.ts'
import type { AddressInfo } from 'node:net'
import { createProxyApp, createProxyConfig, type ProxyApp, type ProxyAppOptions, type ProxyOptions } from '@vexil/proxy'
import type { StorageProvider } from '../../src/storage/types.js'
import { createLogger, type Logger } from '../../src/logger.js'

export interface TestProxy {
  url: string
  /** `url` + path, e.g. `at('/proxy?userId=1')`. */
  at(path: string): string
  proxy: ProxyApp
  logs: string[]
  close(): Promise<void>
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
}

export const CLIENT_KEY = 'client-key-123'

export function memoryLogger(logs: string[]): Logger {
  return createLogger({ level: 'debug', json: false, write: (line) => logs.push(line) })
}

export async function startTestProxy(upstreamUrl: string, options: TestProxyOptions = {}): Promise<TestProxy> {
  const { storage = null, waitReady = true, env = {}, onRequest, instrumentRoute, ...proxyOptions } = options
  const logs: string[] = []
  const config = await createProxyConfig(
    { serviceUrl: upstreamUrl, serviceApiToken: 'upstream-token-secret', clientKeys: [CLIENT_KEY], refreshInterval: 60_000, metricsInterval: 0, logger: memoryLogger(logs), ...proxyOptions },
    env,
  )
  const proxy = createProxyApp({ config, storage, instrumentRoute })
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
export async function startUpstreamWithTokens(features: unknown, tokens: { client: string; frontend: string }, environment = 'development'): Promise<FakeUpstream> {
  const upstream = await startFakeUpstream(features)
  upstream.setFeaturesFor(tokens.client, features)
  upstream.setValidTokens([
    { token: tokens.client, type: 'client', environment, projects: ['*'] },
    { token: tokens.frontend, type: 'frontend', environment, projects: ['*'] },
  ])
  return upstream
}
