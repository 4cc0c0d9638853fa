import { afterAll, describe, expect, it } from 'vitest'
import { startFakeUpstream } from '@vexil/test-fixtures/fake-upstream.ts'
import { tempDir } from '@vexil/test-fixtures/temp-dir.ts'
import { createFileStorage } from '../src/storage/index.js'
import { startTestProxy } from './helpers/proxy.js'

// A restart with the upstream down serves every known token scope from its backup (issue 16):
// the known tokens and each scope's flags are kept in the configured storage.

const CLIENT = '*:production.restart-client'
const FRONTEND = '*:production.restart-front'
const PAYLOAD = {
  version: 2,
  features: [{ name: 'kept', project: 'default', enabled: true, strategies: [{ name: 'default' }] }],
  segments: [],
}
const dir = tempDir('edge-restart')
afterAll(() => dir.remove())

describe('restart with the upstream down', () => {
  it('serves the learned frontend token from the backups; ready says READY', async () => {
    const upstream = await startFakeUpstream({ version: 2, features: [] })
    upstream.setFeaturesFor(CLIENT, PAYLOAD)
    upstream.setValidTokens([
      { token: CLIENT, type: 'client', environment: 'production', projects: ['*'] },
      { token: FRONTEND, type: 'frontend', environment: 'production', projects: ['*'] },
    ])
    // No SERVICE_API_TOKEN: a proxy of TOKENS only, learning the frontend token on first use.
    const options = {
      serviceApiToken: undefined,
      clientKeys: [],
      tokens: [CLIENT],
      storage: createFileStorage({ directory: dir.path }),
    }
    const first = await startTestProxy(upstream.url, options)
    const before = await fetch(first.at('/api/frontend'), { headers: { authorization: FRONTEND } })
    expect(before.status).toBe(200)
    const body = await before.text()
    await first.close()

    upstream.fail({ status: 503 })
    const second = await startTestProxy(upstream.url, {
      ...options,
      storage: createFileStorage({ directory: dir.path }),
    })
    try {
      const after = await fetch(second.at('/api/frontend'), { headers: { authorization: FRONTEND } })
      expect(after.status).toBe(200)
      expect(await after.text()).toBe(body)
      expect(await (await fetch(second.at('/internal-backstage/ready'))).json()).toEqual({ status: 'READY' })
      expect(
        (await fetch(second.at('/api/frontend'), { headers: { authorization: '*:production.never-seen' } })).status,
      ).toBe(503)
    } finally {
      await second.close()
      await upstream.close()
    }
  })
})
