// startProxy: configuration, the app, and a listening server; close() sends pending metrics and
// stops. Signals are the caller's (the CLI's) to handle.
import { createServer, type Server } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import type { Tracing } from '@vexil/server-kit/tracing'
import { createProxyApp, type ProxyApp, type ProxyAppOptions } from './app.js'
import { createProxyConfig, type Environment } from './config/parse.js'
import { startSummary } from './config/start-summary.js'
import type { ProxyConfig, ProxyOptions } from './config/types.js'
import { redirectToHttps } from './http/redirect-to-https.js'
import { serverTimeoutOptions } from './http/server-timeouts.js'

export interface RunningProxy {
  url: string
  port: number
  /** TLS_ENABLE: the port the same app answers HTTPS on. */
  httpsPort: number | undefined
  app: ProxyApp
  config: ProxyConfig
  close(): Promise<void>
}

export interface StartProxyOptions extends ProxyOptions {
  /** Print the listening URL. Default true. */
  showURL?: boolean
  /** Environment to read configuration from (default process.env). */
  env?: Environment
  /** Spans for requests and upstream calls (the caller started the SDK: @vexil/server-kit/tracing). */
  tracing?: Tracing
}

export async function startProxy(options: StartProxyOptions = {}): Promise<RunningProxy> {
  const { showURL = true, env, tracing, ...proxyOptions } = options
  const config = await createProxyConfig(proxyOptions, env)
  if (config.workers > 1)
    config.logger.warn(`WORKERS=${config.workers} is read by the vexil proxy command only: startProxy runs one process`)
  return serveProxy(config, { tracing }, showURL)
}

/**
 * The app over `config`, listening (in a cluster worker: on the port the cluster shares), its
 * sync started. `app`: createProxyApp's other options (a cluster worker passes its sync).
 */
export async function serveProxy(
  config: ProxyConfig,
  app: Omit<ProxyAppOptions, 'config'>,
  showURL: boolean,
): Promise<RunningProxy> {
  const proxy = createProxyApp({ ...app, config })
  const hostname = config.host ?? '0.0.0.0'
  // Our own servers rather than listhen's: the slow-client timeouts (and how often Node checks
  // them) can only be given when a server is created.
  const timeouts = serverTimeoutOptions(config.serverTimeouts)
  const { tls } = config
  const https = tls ? createHttpsServer({ ...timeouts, key: tls.key, cert: tls.cert }, proxy.listener) : undefined
  const httpsPort = https && tls ? await listen(https, tls.port, hostname, 'TLS_SERVER_PORT') : undefined
  const server = createServer(timeouts, tls?.redirectHttp && httpsPort ? redirectToHttps(httpsPort) : proxy.listener)
  const port = await listen(server, config.port, hostname, 'PORT').catch(async (error: unknown) => {
    if (https) await closeServer(https)
    throw error
  })
  const url = proxyUrl(config, port)
  if (showURL) console.log(startSummary(config, port, undefined, httpsPort).join('\n'))
  void proxy.start()

  let closing: Promise<void> | undefined
  const close = () =>
    (closing ??= (async () => {
      // A stream never ends by itself, and the server waits for every response in flight.
      proxy.endStreams()
      await Promise.all([closeServer(server), https && closeServer(https)])
      await proxy.close()
    })())
  return { url, port, httpsPort, app: proxy, config, close }
}

/** The URL of `/proxy` on `port` (127.0.0.1 for all interfaces). */
function proxyUrl(config: ProxyConfig, port: number): string {
  const hostname = config.host ?? '0.0.0.0'
  return `http://${hostname === '0.0.0.0' || hostname === '::' ? '127.0.0.1' : hostname.includes(':') ? `[${hostname}]` : hostname}:${port}${config.proxyBasePath}/proxy`
}

// --- Internal helpers ---

/** Listens, or rejects naming the port when it is taken (never a silent move to another one). */
function listen(server: Server, port: number, hostname: string, variable: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(`Port ${port} on ${hostname} is already in use (set ${variable} to another port)`)
          : error,
      )
    })
    server.listen(port, hostname, () => resolve((server.address() as AddressInfo).port))
  })
}

/** Stops accepting connections, closes the idle ones, and waits for requests in flight. */
function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve())
    server.closeIdleConnections()
  })
}
