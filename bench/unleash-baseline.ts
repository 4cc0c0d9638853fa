// The engine we replace, as the old proxy runs it: unleash-client 6.12.1 with the payload
// bootstrapped in memory (no network), evaluated with isEnabled + getVariant per flag.
import { InMemStorageProvider, Unleash } from 'unleash-client'
import type { ClientFeaturesPayload } from '@vexil/engine'

export async function createUnleashBaseline(payload: ClientFeaturesPayload): Promise<Unleash> {
  const client = new Unleash({
    url: 'http://127.0.0.1:9/api/',
    appName: 'vexil-bench',
    environment: 'production',
    refreshInterval: 0,
    disableMetrics: true,
    storageProvider: new InMemStorageProvider(),
    bootstrap: { data: payload.features as never, segments: (payload.segments ?? []) as never },
  })
  client.on('error', () => {}) // the unreachable URL: this client only ever uses the bootstrap
  client.on('warn', () => {})
  await new Promise<void>((resolve) => client.once('ready', () => resolve()))
  return client
}
