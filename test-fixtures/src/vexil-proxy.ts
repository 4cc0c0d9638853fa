// A real Vexil proxy (@vexil/proxy) listening on 127.0.0.1 and syncing from a running service's
// client API, as a deployment would run it in front of the service (the CLI's and the OpenFeature
// provider's cross-package tests).
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createLogger, createProxyApp, createProxyConfig, type ProxyApp, type ProxyOptions } from '@vexil/proxy'

export const PROXY_CLIENT_KEY = 'frontend-client-key'
export const SERVER_SIDE_TOKEN = 'server-side-sdk-token'

export interface VexilProxy {
  /** `http://127.0.0.1:<port>` + path. */
  at(path: string): string
  app: ProxyApp
  logs: string[]
  /** GET /proxy with the client key; the names of the enabled flags. */
  enabled(query?: string): Promise<string[]>
  close(): Promise<void>
}

/** Starts the proxy against `<serviceUrl>/api` with a client token, and waits for its first sync. */
export async function startVexilProxy(
  serviceUrl: string,
  serviceApiToken: string,
  options: ProxyOptions = {},
): Promise<VexilProxy> {
  const logs: string[] = []
  const config = await createProxyConfig(
    {
      serviceUrl: `${serviceUrl}/api`,
      serviceApiToken,
      clientKeys: [PROXY_CLIENT_KEY],
      expServerSideSdkConfig: { tokens: [SERVER_SIDE_TOKEN] },
      refreshInterval: 200,
      metricsInterval: 0,
      logger: createLogger({ level: 'info', json: false, write: (line) => logs.push(line) }),
      ...options,
    },
    {},
  )
  // No backup storage: what it serves comes from the service, never from an earlier run.
  const app = createProxyApp({ config, storage: null })
  const server: Server = createServer(app.listener)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  await app.start()
  if (!app.ready) throw new Error(`the proxy did not sync from ${serviceUrl}: ${logs.join('\n')}`)
  const at = (path: string) => `${origin}${path}`
  return {
    at,
    app,
    logs,
    async enabled(query = '') {
      const response = await fetch(at(`/proxy${query}`), { headers: { authorization: PROXY_CLIENT_KEY } })
      if (response.status !== 200) throw new Error(`GET /proxy${query}: ${response.status} ${await response.text()}`)
      return ((await response.json()) as { toggles: Array<{ name: string }> }).toggles.map((t) => t.name)
    },
    async close() {
      await app.close()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
