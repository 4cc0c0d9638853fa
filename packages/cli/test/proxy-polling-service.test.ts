// The service and a real Vexil proxy in front of it, as a deployment runs them: the proxy syncs
// from the service's client API and serves what the admin API and signal actions change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type TestService, startTestService } from '@vexil/test-fixtures/vexil-service.ts'
import { waitFor } from '@vexil/test-fixtures/wait-for.ts'
import { PROXY_CLIENT_KEY, SERVER_SIDE_TOKEN, startVexilProxy } from '@vexil/test-fixtures/vexil-proxy.ts'
import { serviceAdmin } from '@vexil/test-fixtures/service-admin.ts'

const ADMIN = '*:*.behind-proxy-admin-secret-0123456789abcdef'
let service: TestService

/** Calls the admin API with the admin token; fails the test on a non-2xx answer. */
const admin = serviceAdmin(() => service.url, ADMIN)

beforeAll(async () => {
  // The sweep is slow on purpose: the action run below must come from the wake after the signal.
  service = await startTestService('behind-proxy', {
    adminToken: ADMIN,
    env: { SIGNAL_ENDPOINT_RATE_LIMIT_PER_SECOND: '1000', SIGNAL_ACTIONS_SWEEP_INTERVAL_MS: '60000' },
  })
})
afterAll(async () => {
  await service.close()
})

describe('the Vexil proxy in front of the service', () => {
  it('syncs from the service and serves a flag; server-side SDKs get it with its segments', async () => {
    // Another project's flag, which the proxy's token must not see.
    await admin('POST', '/api/admin/projects', { id: 'web', name: 'Web' })
    await admin('POST', '/api/admin/projects/web/features', { name: 'sdk-flag', type: 'experiment' })
    await admin('POST', '/api/admin/projects/web/features/sdk-flag/environments/development/strategies', {
      name: 'default',
    })
    await admin('POST', '/api/admin/projects/web/features/sdk-flag/environments/development/on')

    await admin('POST', '/api/admin/projects', { id: 'proxied', name: 'Proxied' })
    const segment = await admin('POST', '/api/admin/segments', {
      name: 'beta-plan',
      constraints: [{ contextName: 'plan', operator: 'IN', values: ['beta'] }],
    })
    await admin('POST', '/api/admin/projects/proxied/features', { name: 'proxied-flag', type: 'release' })
    await admin('POST', '/api/admin/projects/proxied/features/proxied-flag/environments/development/strategies', {
      name: 'flexibleRollout',
      parameters: { rollout: '100', stickiness: 'default' },
      constraints: [{ contextName: 'userId', operator: 'IN', values: ['u1', 'u2'] }],
      segments: [segment.id],
      variants: [
        { name: 'teal', weight: 1000, stickiness: 'default', payload: { type: 'json', value: '{"tone":"teal"}' } },
      ],
    })
    await admin('POST', '/api/admin/projects/proxied/features/proxied-flag/environments/development/on')
    // A client token for that project, made through the admin API, as an operator would.
    const token = await admin('POST', '/api/admin/api-tokens', {
      tokenName: 'vexil-proxy',
      type: 'client',
      environment: 'development',
      projects: ['proxied'],
    })

    const proxy = await startVexilProxy(service.url, token.secret)
    try {
      expect(proxy.logs.join('\n')).toContain('flags loaded from the upstream')
      expect(await proxy.enabled('?userId=u1&properties[plan]=beta')).toEqual(['proxied-flag'])
      // The constraint and the segment both hold on the proxy.
      expect(await proxy.enabled('?userId=u1')).toEqual([])
      expect(await proxy.enabled('?userId=stranger&properties[plan]=beta')).toEqual([])
      // Only the token's project: the web project's flag is not there.
      expect(await proxy.enabled('?userId=u1&plan=beta')).not.toContain('sdk-flag')

      const evaluated = await fetch(proxy.at('/proxy'), {
        method: 'POST',
        headers: { authorization: PROXY_CLIENT_KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ context: { userId: 'u2', properties: { plan: 'beta' } } }),
      })
      const { toggles } = await evaluated.json()
      expect(toggles).toEqual([
        {
          name: 'proxied-flag',
          enabled: true,
          impressionData: false,
          variant: {
            name: 'teal',
            enabled: true,
            feature_enabled: true,
            featureEnabled: true,
            payload: { type: 'json', value: '{"tone":"teal"}' },
          },
        },
      ])
      // Evaluation answers never carry the configuration.
      expect(JSON.stringify(toggles)).not.toMatch(/strategies|constraints|segments|"u2"/)

      // /proxy/client/features for a server-side token: the definitions, with the segments.
      const forServers = await fetch(proxy.at('/proxy/client/features'), {
        headers: { authorization: SERVER_SIDE_TOKEN },
      })
      expect(forServers.status).toBe(200)
      const payload = await forServers.json()
      expect(payload.features.map((f: { name: string }) => f.name)).toEqual(['proxied-flag'])
      expect(payload.features[0].strategies[0]).toMatchObject({
        name: 'flexibleRollout',
        segments: [segment.id],
        constraints: [{ contextName: 'userId', operator: 'IN', values: ['u1', 'u2'] }],
      })
      expect(payload.segments).toEqual([
        expect.objectContaining({
          id: segment.id,
          constraints: [expect.objectContaining({ contextName: 'plan', operator: 'IN', values: ['beta'] })],
        }),
      ])
      expect(
        (await fetch(proxy.at('/proxy/client/features'), { headers: { authorization: PROXY_CLIENT_KEY } })).status,
      ).toBe(401)
    } finally {
      await proxy.close()
    }
  })

  it('signal in, flag flips, proxy serves it', async () => {
    const flag = 'proxied-checkout'
    await admin('POST', '/api/admin/projects/default/features', { name: flag })
    await admin('POST', `/api/admin/projects/default/features/${flag}/environments/development/on`)
    const endpoint = await admin('POST', '/api/admin/signal-endpoints', { name: 'incidents' })
    const { token: signalToken } = await admin('POST', `/api/admin/signal-endpoints/${endpoint.id}/tokens`, {
      name: 'incidents-bot',
    })
    const token = await admin('POST', '/api/admin/api-tokens', {
      tokenName: 'vexil-proxy-default',
      type: 'client',
      environment: 'development',
      projects: ['default'],
    })
    const proxy = await startVexilProxy(service.url, token.secret, { refreshInterval: 100 })
    const set = await admin('POST', '/api/admin/projects/default/actions', {
      name: 'kill proxied checkout',
      match: {
        source: 'signal-endpoint',
        sourceId: endpoint.id,
        payload: { 'data.flag': { operator: 'IN', values: [flag] } },
      },
      actions: [
        {
          action: 'TOGGLE_FEATURE_OFF',
          sortOrder: 1,
          executionParams: { project: 'default', environment: 'development', featureName: flag },
        },
      ],
    })
    try {
      expect(await proxy.enabled()).toContain(flag)
      const sent = await fetch(`${service.url}/api/signal-endpoint/incidents`, {
        method: 'POST',
        headers: { authorization: `Bearer ${signalToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'incident', data: { flag } }),
      })
      expect(sent.status).toBe(200)
      const { id } = await sent.json()
      const runs = async () =>
        (await admin('GET', `/api/admin/projects/default/actions/${set.id}/events?limit=100`)).actionSetEvents as any[]
      const [run] = await waitFor(async () => (await runs()).length > 0 && runs(), 'the action set to run')
      expect(run).toMatchObject({ signalId: id, state: 'success' })
      expect(
        (await admin('GET', `/api/admin/projects/default/features/${flag}/environments/development`)).enabled,
      ).toBe(false)
      // The proxy serves the new state after its next poll.
      const flipped = Date.now()
      await waitFor(async () => !(await proxy.enabled()).includes(flag), 'the proxy to stop serving the flag')
      expect(Date.now() - flipped).toBeLessThan(2_000)
      const all = await fetch(proxy.at('/proxy'), {
        method: 'POST',
        headers: { authorization: PROXY_CLIENT_KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ toggles: [flag] }),
      })
      expect((await all.json()).toggles).toEqual([expect.objectContaining({ name: flag, enabled: false })])
    } finally {
      await proxy.close()
      await admin('DELETE', `/api/admin/projects/default/actions/${set.id}`)
    }
  })
})
