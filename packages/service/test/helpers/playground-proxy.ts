// A real Vexil proxy (@vexil/proxy) syncing from a running service's client API with a client
// token, as a deployment runs it: what the playground's answers are checked against. The proxy
// is test-fixtures' startVexilProxy, the one the CLI's and the provider's tests run.
import { hostname } from 'node:os'
import { PROXY_CLIENT_KEY, startVexilProxy } from '@vexil/test-fixtures/vexil-proxy.ts'

/** The host name the proxy's engine compares applicationHostname with (proxy app.ts). */
export const PROXY_HOSTNAME = process.env.HOSTNAME ?? hostname()

export interface PlaygroundProxy {
  /** POST /proxy with `context`: the enabled flags and their variant names. */
  evaluate(context: Record<string, unknown>): Promise<Map<string, string>>
  close(): Promise<void>
}

export async function startPlaygroundProxy(serviceUrl: string, clientToken: string): Promise<PlaygroundProxy> {
  const proxy = await startVexilProxy(serviceUrl, clientToken)
  return {
    async evaluate(context) {
      const response = await fetch(proxy.at('/proxy'), {
        method: 'POST',
        headers: { authorization: PROXY_CLIENT_KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ context }),
      })
      if (response.status !== 200) throw new Error(`POST /proxy: ${response.status} ${await response.text()}`)
      const { toggles } = (await response.json()) as { toggles: Array<{ name: string; variant: { name: string } }> }
      return new Map(toggles.map((t) => [t.name, t.variant.name]))
    },
    close: () => proxy.close(),
  }
}
