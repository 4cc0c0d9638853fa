import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FakeUpstream } from '@vexil/test-fixtures/fake-upstream.ts'
import { CLIENT_KEY, startTestProxy, startUpstreamWithTokens, type TestProxy } from './helpers/proxy.js'

// Security review 2, finding 11: which flags an evaluation route may name to a caller. The "all"
// switch of a credential's kind (ENABLE_ALL_ENDPOINT for the client key, DISABLE_ALL_ENDPOINT for
// frontend tokens) holds on every protocol: with it off, a flag not enabled for the caller's
// context is neither listed (OFREP bulk) nor told apart from an unknown name (OFREP single,
// /api/frontend/features/<name>). Real listening proxies against a fake upstream.

const CLIENT = '*:development.visibility-client-1'
const FRONTEND = '*:development.visibility-front-1'
const FEATURES = {
  version: 2,
  features: [
    { name: 'launched', enabled: true, strategies: [{ name: 'default' }] },
    { name: 'unannounced-acquisition', enabled: false, strategies: [{ name: 'default' }] },
    { name: 'internal-only', enabled: true, strategies: [{ name: 'userWithId', parameters: { userIds: 'staff-1' } }] },
  ],
  segments: [],
}
const BULK = '/ofrep/v1/evaluate/flags'

let upstream: FakeUpstream
const proxies: TestProxy[] = []

beforeAll(async () => {
  upstream = await startUpstreamWithTokens(FEATURES, { client: CLIENT, frontend: FRONTEND })
})
afterAll(async () => {
  for (const proxy of proxies) await proxy.close()
  await upstream.close()
})

async function proxyWith(options: { enableAllEndpoint?: boolean; disableAllEndpoint?: boolean }): Promise<TestProxy> {
  const proxy = await startTestProxy(upstream.url, { tokens: [CLIENT], ...options })
  proxies.push(proxy)
  return proxy
}

const post = (
  proxy: TestProxy,
  path: string,
  credential: string,
  context: Record<string, string> = { targetingKey: 'u1' },
) =>
  fetch(proxy.at(path), {
    method: 'POST',
    headers: { authorization: credential, 'content-type': 'application/json' },
    body: JSON.stringify({ context }),
  })
const bulkKeys = async (proxy: TestProxy, credential: string) =>
  ((await (await post(proxy, BULK, credential)).json()) as { flags: Array<{ key: string }> }).flags.map((f) => f.key)
/** Status and body, with the flag's name replaced, so a hidden flag's answer can be compared with an unknown one's. */
const answer = async (proxy: TestProxy, path: string, credential: string, name: string) => {
  const response = await post(proxy, `${path}/${name}`, credential)
  return { status: response.status, body: (await response.text()).replaceAll(name, '<name>') }
}

describe.each([
  ['the client key', CLIENT_KEY, { enableAllEndpoint: false }, { enableAllEndpoint: true }],
  ['a frontend token', FRONTEND, { disableAllEndpoint: true }, { disableAllEndpoint: false }],
])('%s', (_, credential, hiding, showing) => {
  it('with its "all" switch off, OFREP lists only the flags enabled for the context', async () => {
    expect(await bulkKeys(await proxyWith(hiding), credential)).toEqual(['launched'])
  })

  it('with its "all" switch on, OFREP lists every flag of the scope', async () => {
    expect(await bulkKeys(await proxyWith(showing), credential)).toEqual([
      'launched',
      'unannounced-acquisition',
      'internal-only',
    ])
  })

  it('with its "all" switch off, a flag not enabled for the context answers as an unknown name does', async () => {
    const proxy = await proxyWith(hiding)
    const paths = credential === FRONTEND ? [BULK, '/api/frontend/features'] : [BULK]
    for (const path of paths) {
      const unknown = await answer(proxy, path, credential, 'no-such-flag')
      expect(unknown.status, path).toBe(404)
      expect(await answer(proxy, path, credential, 'unannounced-acquisition'), path).toEqual(unknown)
      expect(await answer(proxy, path, credential, 'internal-only'), path).toEqual(unknown)
      expect((await post(proxy, `${path}/launched`, credential)).status, path).toBe(200)
      // Enabled for this context: answered.
      expect(
        (await post(proxy, `${path}/internal-only`, credential, { targetingKey: 'staff-1', userId: 'staff-1' })).status,
        path,
      ).toBe(200)
    }
  })

  it('with its "all" switch on, a disabled flag is answered with its reason', async () => {
    const proxy = await proxyWith(showing)
    const response = await post(proxy, `${BULK}/unannounced-acquisition`, credential)
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ key: 'unannounced-acquisition', reason: 'DISABLED', value: false })
  })
})
