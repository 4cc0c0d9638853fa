// startProxy: configuration, the app, and a listening server; stops cleanly on SIGTERM/SIGINT
// after sending pending metrics.
import type { Server } from 'node:http'
import { checkPort } from 'get-port-please'
import { listen, type Listener } from 'listhen'
import { createProxyApp, type ProxyApp } from './app.js'
import { createProxyConfig, type Environment } from './config/parse.js'
import type { ProxyConfig, ProxyOptions } from './config/types.js'
import { applyServerTimeouts } from './http/server-timeouts.js'

export interface RunningProxy {
  url: string
  port: number
  app: ProxyApp
  config: ProxyConfig
  close(): Promise<void>
}

export interface StartProxyOptions extends ProxyOptions {
  /** Print the listening URLs (listhen). Default true. */
  showURL?: boolean
  /** Stop on SIGTERM/SIGINT (the CLI does). Default false. */
  handleSignals?: boolean
  /** Environment to read configuration from (default process.env). */
  env?: Environment
}

export async function startProxy(options: StartProxyOptions = {}): Promise<RunningProxy> {
  const { showURL = true, handleSignals = false, env, ...proxyOptions } = options
  const config = await createProxyConfig(proxyOptions, env)
  const proxy = createProxyApp({ config })
  const hostname = config.host ?? '0.0.0.0'
  // listhen would silently move to another port when this one is taken: refuse instead.
  if (config.port !== 0 && (await checkPort(config.port, hostname)) === false) {
    throw new Error(`Port ${config.port} on ${hostname} is already in use (set PORT to another port)`)
  }
  const listener: Listener = await listen(proxy.listener, {
    port: config.port,
    hostname,
    showURL,
    name: 'Vexil proxy',
    public: hostname !== '127.0.0.1' && hostname !== 'localhost',
    qr: false,
    open: false,
    // We stop on signals ourselves, after sending pending metrics.
    autoClose: false,
  })
  applyServerTimeouts(listener.server as Server, config.serverTimeouts)
  const port = Number(new URL(listener.url).port)
  void proxy.start()

  let closing: Promise<void> | undefined
  const close = () =>
    (closing ??= (async () => {
      await listener.close()
      await proxy.close()
    })())
  if (handleSignals) {
    const stop = (signal: string) => {
      config.logger.info(`Received ${signal}: sending pending metrics and stopping`)
      close().then(
        () => process.exit(0),
        (error) => {
          config.logger.error('Error while stopping', error)
          process.exit(1)
        },
      )
    }
    process.once('SIGTERM', () => stop('SIGTERM'))
    process.once('SIGINT', () => stop('SIGINT'))
  }
  return { url: `http://${hostname === '0.0.0.0' ? '127.0.0.1' : hostname}:${port}${config.proxyBasePath}/proxy`, port, app: proxy, config, close }
}
