// A server SDK (unleash-client from npm) syncing from the proxy's /proxy/client/features with a
// server-side token: it gets the segments the old proxy dropped (#201), so flags gated by a
// segment evaluate correctly behind the proxy.
import { describe, expect, it } from 'vitest'
import { InMemStorageProvider, Unleash } from 'unleash-client'
import { useServers } from './helpers/proxy.js'

const servers = useServers()

describe('unleash-client behind the proxy', () => {
  it("evaluates a segment-gated flag from the proxy's server-side payload", async () => {
    const upstream = await servers.upstream({
      version: 2,
      segments: [{ id: 7, name: 'beta', constraints: [{ contextName: 'tenant', operator: 'IN', values: ['acme'] }] }],
      features: [{ name: 'beta.feature', enabled: true, strategies: [{ name: 'default', segments: [7] }] }],
    })
    const proxy = await servers.proxy(upstream, { expServerSideSdkConfig: { tokens: ['server-token'] } })
    const client = new Unleash({
      url: `${proxy.url}/proxy`,
      appName: 'server-app',
      customHeaders: { Authorization: 'server-token' },
      refreshInterval: 1000,
      disableMetrics: true,
      storageProvider: new InMemStorageProvider(),
    })
    servers.defer(() => client.destroy())
    client.on('error', () => {})
    await new Promise<void>((resolve) => client.once('synchronized', () => resolve()))
    expect(client.isEnabled('beta.feature', { properties: { tenant: 'acme' } })).toBe(true)
    expect(client.isEnabled('beta.feature', { properties: { tenant: 'other' } })).toBe(false)
  })
})
