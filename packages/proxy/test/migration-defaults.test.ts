// The defaults a migrating deployment keeps: the old proxy's app name with its UNLEASH_* variables,
// Edge's port and app name under `vexil edge`, the specification's otherwise; Edge's REDIS_URL
// alone selecting Redis; and the start log naming what is served, as whom, and where backups go.
import { describe, expect, it } from 'vitest'
import { createProxyConfig } from '../src/config/parse.js'
import { startSummary } from '../src/config/start-summary.js'

const EDGE_UPSTREAM = { SERVICE_URL: 'http://unleash.unleash:4242/api', TOKENS: '*:development.t' }

describe('defaults a migrating deployment keeps', () => {
  it("vexil edge: Edge's port and app name", async () => {
    const config = await createProxyConfig({ mode: 'edge' }, EDGE_UPSTREAM)
    expect(config).toMatchObject({ port: 3063, serviceAppName: 'unleash-edge', mode: 'edge' })
  })

  it("the old proxy's UNLEASH_* variables: the old proxy's app name", async () => {
    const config = await createProxyConfig(
      {},
      { UNLEASH_URL: 'http://u/api', UNLEASH_API_TOKEN: 't', UNLEASH_PROXY_CLIENT_KEYS: 'k' },
    )
    expect(config.serviceAppName).toBe('unleash-proxy')
    expect(config.serviceAppNameFrom).toBe(
      "the old proxy's default, as UNLEASH_URL configures this proxy; SERVICE_APP_NAME sets another",
    )
  })

  it("the specification's names: the specification's app name; a set name always wins", async () => {
    const required = { SERVICE_URL: 'http://u/api', SERVICE_API_TOKEN: 't', SERVICE_PROXY_CLIENT_KEYS: 'k' }
    expect((await createProxyConfig({}, required)).serviceAppName).toBe('service-proxy')
    expect(
      await createProxyConfig({}, { ...required, UNLEASH_URL: 'http://old/api', UNLEASH_APP_NAME: 'mine' }),
    ).toMatchObject({ serviceAppName: 'mine', serviceAppNameFrom: 'UNLEASH_APP_NAME' })
  })

  it("Edge's REDIS_URL alone selects Redis; STORAGE_PROVIDER still wins", async () => {
    const env = { SERVICE_URL: 'http://u/api', TOKENS: 't', REDIS_URL: 'redis://127.0.0.1:6379' }
    expect((await createProxyConfig({}, env)).storage.kind).toBe('redis')
    expect((await createProxyConfig({}, { ...env, STORAGE_PROVIDER: 'file' })).storage.kind).toBe('file')
  })
})

describe('the start log', () => {
  it('names the routes served: no /proxy without SERVICE_API_TOKEN', async () => {
    const config = await createProxyConfig(
      { mode: 'edge', host: '127.0.0.1' },
      { ...EDGE_UPSTREAM, STORAGE_PROVIDER: 'memory' },
    )
    expect(startSummary(config, 3063)).toEqual([
      'Vexil proxy listening on http://127.0.0.1:3063',
      '  Routes:   /api/frontend (and /all), /api/client (with /streaming and /delta), /ofrep/v1, /edge/validate, /internal-backstage; no /proxy (it needs SERVICE_API_TOKEN and SERVICE_PROXY_CLIENT_KEYS)',
      "  App name: unleash-edge (Edge's default under vexil edge; APP_NAME sets another)",
      '  Backups:  in memory only (STORAGE_PROVIDER=memory)',
    ])
  })

  it('names /proxy under the base path when it is served, and the workers', async () => {
    const config = await createProxyConfig(
      {},
      {
        SERVICE_URL: 'http://u/api',
        SERVICE_API_TOKEN: 't',
        SERVICE_PROXY_CLIENT_KEYS: 'k',
        PROXY_BASE_PATH: 'base',
        REDIS_URL: 'redis://127.0.0.1:6379',
      },
    )
    expect(startSummary(config, 3000, 4)).toEqual([
      'Vexil proxy listening on http://127.0.0.1:3000/base (every other interface too: HOST sets one; 4 workers)',
      '  Routes:   /base/proxy, /base/api/frontend (and /all), /base/api/client (with /streaming and /delta), /base/ofrep/v1, /base/edge/validate, /base/internal-backstage',
      '  App name: service-proxy (the default; SERVICE_APP_NAME sets another)',
      '  Backups:  Redis (REDIS_URL)',
    ])
  })
})
