// GET /api/admin/ui-config: where the admin UI's setup snippets say SDKs connect, from PROXY_URL
// or from what `vexil start` tells the running service.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseServiceConfig } from '../src/config.js'
import { silentLogger } from '../src/logger.js'
import { type RunningService, startService } from '../src/server.js'
import { tempDir } from '@vexil/test-fixtures/temp-dir.ts'

describe('PROXY_URL', () => {
  it('is the proxy base URL without a trailing slash; unset, the service knows no proxy', () => {
    expect(parseServiceConfig({ PROXY_URL: 'https://flags-proxy.example.com/' }).proxy).toEqual({
      url: 'https://flags-proxy.example.com',
      clientKey: undefined,
    })
    expect(parseServiceConfig({}).proxy).toEqual({ url: undefined, clientKey: undefined })
  })

  it('refuses a URL with credentials, naming the variable', () => {
    expect(() => parseServiceConfig({ PROXY_URL: 'https://a:b@proxy.example.com' })).toThrow(
      /PROXY_URL must be an http\(s\) URL without credentials/,
    )
  })
})

describe('GET /api/admin/ui-config', () => {
  const data = tempDir('ui-config')
  let service: RunningService
  const get = async (token: string) =>
    fetch(`${service.url}/api/admin/ui-config`, { headers: { authorization: token } })

  beforeAll(async () => {
    service = await startService({
      port: 0,
      host: '127.0.0.1',
      dataDir: data.path,
      seedDemo: true,
      logger: silentLogger,
      env: { PROXY_URL: 'http://proxy.internal:3063' },
    })
  }, 60_000)

  afterAll(async () => {
    await service?.close()
    data.remove()
  })

  it('answers admins with the service URL and PROXY_URL, no client key yet', async () => {
    const response = await get(service.demo!.adminToken)
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({
      unleashUrl: `http://localhost:${service.port}`,
      proxy: { url: 'http://proxy.internal:3063', clientKey: null },
    })
  })

  it('shows what the platform announces once its proxy listens', async () => {
    service.announceProxy({ url: 'http://127.0.0.1:3000', clientKey: 'proxy-key' })
    expect((await (await get(service.demo!.adminToken)).json()).proxy).toEqual({
      url: 'http://127.0.0.1:3000',
      clientKey: 'proxy-key',
    })
  })

  it('is for admins only: it holds the proxy client key', async () => {
    expect((await get(service.demo!.clientToken)).status).toBe(403)
  })
})
