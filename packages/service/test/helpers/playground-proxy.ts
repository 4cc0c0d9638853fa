// A real Vexil proxy (@vexil/proxy) syncing from a running service's client API with a client
// token, as a deployment runs it: what the playground's answers are checked against.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { hostname } from 'node:os'
import { createLogger, createProxyApp, createProxyConfig } from '@vexil/proxy'

const CLIENT_KEY = 'playground-proxy-client-key'

/** The host name the proxy's engine compares applicationHostname with (proxy app.ts). */
export const PROXY_HOSTNAME = process.env.HOSTNAME ?? hostname()

export interface PlaygroundProxy {
  /** POST /proxy with `context`: the enabled flags and their variant names. */
  evaluate(context: Record<string, unknown>): Promise<Map<string, string>>
  close(): Promise<void>
}

export async function startPlaygroundProxy(serviceUrl: string, clientToken: string): Promise<PlaygroundProxy> {
  const logs: string[] = []
  const config = await createProxyConfig(
    {
      serviceUrl: `${serviceUrl}/api`,
      serviceApiToken: clientToken,
      clientKeys: [CLIENT_KEY],
      refreshInterval: 200,
      metricsInterval: 0,
      logger: createLogger({ level: 'warn', json: false, write: (line) => logs.push(line) }),
    },
    {},
  )
  const app = createProxyApp({ config, storage: null })
  const server: Server = createServer(app.listener)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  await app.start()
  if (!app.ready) throw new Error(`the proxy did not sync from ${serviceUrl}: ${logs.join('\n')}`)
  return {
    async evaluate(context) {
      const response = await fetch(`${origin}/proxy`, {
        method: 'POST',
        headers: { authorization: CLIENT_KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ context }),
      })
      if (response.status !== 200) throw new Error(`POST /proxy: ${response.status} ${await response.text()}`)
      const { toggles } = (await response.json()) as { toggles: Array<{ name: string; variant: { name: string } }> }
      return new Map(toggles.map((t) => [t.name, t.variant.name]))
    },
    async close() {
      await app.close()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
