import { describe, expect, it } from 'vitest'
import { createMemoryStorage } from '../src/storage/memory.js'
import { scopeBackupKey } from '../src/scope/token-sync.js'
import { useServers } from './helpers/proxy.js'

// Security review 2, finding 8: each token scope's backup has its own name (prod-eu/web and
// prod/eu-web once shared one), and a backup is used only by the scope it was written for.
// Two runs of a real proxy sharing one storage; the second with the upstream down.

const servers = useServers()

const EU_WEB_CLIENT = 'web:prod-eu.eu-web-client-1'
const PROD_CLIENT = 'eu-web:prod.prod-client-2'
const EU_WEB_FRONTEND = 'web:prod-eu.eu-web-front-1'
const PROD_FRONTEND = 'eu-web:prod.prod-front-2'

const flags = (name: string, project: string) => ({
  version: 2,
  features: [{ name, project, enabled: true, strategies: [{ name: 'default' }] }],
  segments: [],
})
const token = (secret: string, type: 'client' | 'frontend', environment: string, project: string) => ({
  token: secret,
  type,
  environment,
  projects: [project],
})
const names = async (res: Response) =>
  res.status === 200
    ? ((await res.json()) as { toggles: Array<{ name: string }> }).toggles.map((t) => t.name)
    : res.status

describe('token scope backups', () => {
  it('names are injective: no two scopes share one', () => {
    const keys = [
      scopeBackupKey({ environment: 'prod-eu', projects: ['web'] }),
      scopeBackupKey({ environment: 'prod', projects: ['eu-web'] }),
      scopeBackupKey({ environment: 'prod', projects: ['a', 'b'] }),
      scopeBackupKey({ environment: 'prod', projects: ['a+b'] }),
      scopeBackupKey({ environment: 'prod', projects: ['a,b'] }),
      scopeBackupKey({ environment: 'prod', projects: ['*'] }),
      scopeBackupKey({ environment: 'prod', projects: ['_'] }),
      scopeBackupKey({ environment: 'prod+a', projects: ['b'] }),
    ]
    expect(new Set(keys).size).toBe(keys.length)
  })

  it('a restart with the upstream down: each scope starts from its own backup', async () => {
    const storage = createMemoryStorage()
    const upstream = await servers.upstream({ version: 2, features: [] })
    upstream.setFeaturesFor(EU_WEB_CLIENT, flags('eu-web-flag', 'web'))
    upstream.setFeaturesFor(PROD_CLIENT, flags('prod-flag', 'eu-web'))
    upstream.setValidTokens([
      token(EU_WEB_CLIENT, 'client', 'prod-eu', 'web'),
      token(PROD_CLIENT, 'client', 'prod', 'eu-web'),
      token(EU_WEB_FRONTEND, 'frontend', 'prod-eu', 'web'),
      token(PROD_FRONTEND, 'frontend', 'prod', 'eu-web'),
    ])
    const first = await servers.proxy(upstream, {
      tokens: [EU_WEB_CLIENT, PROD_CLIENT],
      refreshInterval: 100,
      storage: storage as never,
    })
    expect(
      await names(await fetch(first.at('/api/frontend'), { headers: { authorization: EU_WEB_FRONTEND } })),
    ).toEqual(['eu-web-flag'])
    expect(await names(await fetch(first.at('/api/frontend'), { headers: { authorization: PROD_FRONTEND } }))).toEqual([
      'prod-flag',
    ])
    // Both backups written (the writes are not awaited by the flags).
    await new Promise((resolve) => setTimeout(resolve, 200))
    await first.close()

    upstream.fail({ status: 503 })
    // Not ready: the static scope had no flags to back up.
    const second = await servers.proxy(upstream, {
      tokens: [EU_WEB_CLIENT, PROD_CLIENT],
      refreshInterval: 100,
      storage: storage as never,
      waitReady: false,
    })
    await second.proxy.start()
    expect(
      await names(await fetch(second.at('/api/frontend'), { headers: { authorization: EU_WEB_FRONTEND } })),
    ).toEqual(['eu-web-flag'])
    expect(await names(await fetch(second.at('/api/frontend'), { headers: { authorization: PROD_FRONTEND } }))).toEqual(
      ['prod-flag'],
    )
  })

  it('a backup written for another scope is refused on restore', async () => {
    const storage = createMemoryStorage()
    const upstream = await servers.upstream({ version: 2, features: [] })
    upstream.setFeaturesFor(EU_WEB_CLIENT, flags('eu-web-flag', 'web'))
    upstream.setValidTokens([
      token(EU_WEB_CLIENT, 'client', 'prod-eu', 'web'),
      token(EU_WEB_FRONTEND, 'frontend', 'prod-eu', 'web'),
      token(PROD_CLIENT, 'client', 'prod', 'eu-web'),
      token(PROD_FRONTEND, 'frontend', 'prod', 'eu-web'),
    ])
    const first = await servers.proxy(upstream, {
      tokens: [EU_WEB_CLIENT, PROD_CLIENT],
      refreshInterval: 100,
      storage: storage as never,
    })
    expect(
      await names(await fetch(first.at('/api/frontend'), { headers: { authorization: EU_WEB_FRONTEND } })),
    ).toEqual(['eu-web-flag'])
    await new Promise((resolve) => setTimeout(resolve, 200))
    await first.close()
    // prod/eu-web's backup replaced by prod-eu/web's.
    await storage.set(
      scopeBackupKey({ environment: 'prod', projects: ['eu-web'] }),
      (await storage.get(scopeBackupKey({ environment: 'prod-eu', projects: ['web'] })))!,
    )

    upstream.fail({ status: 503 })
    const second = await servers.proxy(upstream, {
      tokens: [EU_WEB_CLIENT, PROD_CLIENT],
      refreshInterval: 100,
      storage: storage as never,
      waitReady: false,
    })
    await second.proxy.start()
    expect(await names(await fetch(second.at('/api/frontend'), { headers: { authorization: PROD_FRONTEND } }))).toBe(
      503,
    )
    expect(second.logs.join('\n')).toContain('was written for another scope')
  })
})
