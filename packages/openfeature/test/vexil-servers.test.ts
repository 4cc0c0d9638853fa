// The provider against the real Vexil service (PGlite in a temp folder) and the real Vexil proxy
// in front of it, all on 127.0.0.1, through the OpenFeature SDK: values of every type, an admin
// change within a second by the stream (from the service, and through the proxy), metrics that
// reach the service. Servers are started as the CLI's cross-package tests start them.
import { isDeepStrictEqual } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type EventDetails, OpenFeature, ProviderEvents } from '@openfeature/server-sdk'
import { type TestService, startTestService } from '@vexil/test-fixtures/vexil-service.ts'
import { timeUntil, waitFor } from '@vexil/test-fixtures/wait-for.ts'
import { serviceAdmin } from '@vexil/test-fixtures/service-admin.ts'
import { startVexilProxy, type VexilProxy } from '@vexil/test-fixtures/vexil-proxy.ts'
import { VexilProvider } from '../src/index.js'
import { recordingLogger } from './helpers.js'

const ADMIN = '*:*.openfeature-admin-secret-0123456789abcdef'
const CLIENT = '*:development.openfeature-client-secret-0123456789abcdef'
const FEATURES = '/api/admin/projects/default/features'

let service: TestService
let proxy: VexilProxy
const admin = serviceAdmin(() => service.url, ADMIN)

async function flag(name: string, variants?: unknown[]): Promise<void> {
  await admin('POST', FEATURES, { name })
  await admin('POST', `${FEATURES}/${name}/environments/development/strategies`, { name: 'default' })
  if (variants) await admin('PUT', `${FEATURES}/${name}/variants`, variants)
  await admin('POST', `${FEATURES}/${name}/environments/development/on`)
}
const variant = (name: string, payload: { type: string; value: string }) => ({
  name,
  weight: 1000,
  weightType: 'variable',
  stickiness: 'default',
  payload,
})
const toggle = (name: string, on: boolean) =>
  admin('POST', `${FEATURES}/${name}/environments/development/${on ? 'on' : 'off'}`)

beforeAll(async () => {
  service = await startTestService('openfeature-servers', { adminToken: ADMIN, clientToken: CLIENT })
  await flag('of.boolean')
  await flag('of.string', [variant('blue', { type: 'string', value: 'navy' })])
  await flag('of.number', [variant('answer', { type: 'number', value: '42' })])
  await flag('of.object', [variant('layout', { type: 'json', value: '{"columns":3}' })])
  proxy = await startVexilProxy(service.url, CLIENT, { refreshInterval: 60_000 })
})

afterAll(async () => {
  await OpenFeature.clearProviders()
  await proxy?.close()
  await service?.close()
})

describe.each([
  ['the Vexil service', () => `${service.url}/api`],
  ['the Vexil proxy in front of it', () => proxy.at('/api')],
])('VexilProvider against %s', (where, url) => {
  const domain = `servers-${where}`
  const logger = recordingLogger()
  let provider: VexilProvider

  beforeAll(async () => {
    // A poll interval of a minute: what arrives sooner came by the stream.
    provider = new VexilProvider({
      url: url(),
      clientKey: CLIENT,
      appName: 'openfeature-servers-test',
      refreshInterval: 60_000,
      metricsInterval: 300,
      logger,
    })
    await OpenFeature.setProviderAndWait(domain, provider)
  })

  it('serves every type of value', async () => {
    const client = OpenFeature.getClient(domain)
    expect(await client.getBooleanValue('of.boolean', false, { targetingKey: 'u1' })).toBe(true)
    expect(await client.getStringValue('of.string', 'red')).toBe('navy')
    expect(await client.getNumberValue('of.number', 0)).toBe(42)
    expect(await client.getObjectValue('of.object', {})).toEqual({ columns: 3 })
    expect(await client.getBooleanDetails('of.unknown', true)).toMatchObject({
      value: true,
      errorCode: 'FLAG_NOT_FOUND',
    })
  })

  it('sees an admin change within a second, as ConfigurationChanged', async () => {
    const client = OpenFeature.getClient(domain)
    const name = `of.live-${where === 'the Vexil service' ? 'service' : 'proxy'}`
    const changed: string[][] = []
    const handler = (details?: EventDetails) => void changed.push((details?.flagsChanged as string[] | undefined) ?? [])
    provider.events.addHandler(ProviderEvents.ConfigurationChanged, handler)
    try {
      await flag(name)
      const on = await timeUntil(() => client.getBooleanValue(name, false), `${name} on`, { timeoutMs: 2_000 })
      await toggle(name, false)
      const off = await timeUntil(async () => !(await client.getBooleanValue(name, true)), `${name} off`, {
        timeoutMs: 2_000,
      })
      expect(Math.max(on, off)).toBeLessThan(1_000)
      expect(changed.flat()).toContain(name)
    } finally {
      provider.events.removeHandler(ProviderEvents.ConfigurationChanged, handler)
    }
    expect(logger.lines).toEqual([])
  })
})

describe('metrics', () => {
  it('counted evaluations reach the service', async () => {
    const provider = new VexilProvider({
      url: `${service.url}/api`,
      clientKey: CLIENT,
      appName: 'openfeature-metrics-test',
      refreshInterval: 60_000,
      metricsInterval: 60_000,
      logger: recordingLogger(),
    })
    await OpenFeature.setProviderAndWait('servers-metrics', provider)
    const client = OpenFeature.getClient('servers-metrics')
    await client.getBooleanValue('of.boolean', false)
    await client.getBooleanValue('of.boolean', false)
    await client.getStringValue('of.string', 'red')
    // Sent on close, not waiting for the interval.
    await provider.onClose()
    const counted = async (name: string) => {
      const { data: rows } = (await admin('GET', `/api/admin/client-metrics/features/${name}/raw`)) as {
        data: Array<{ appName: string; yes: number; no: number; variants: Record<string, number> }>
      }
      return rows
        .filter((row) => row.appName === 'openfeature-metrics-test')
        .map((row) => ({ yes: Number(row.yes), no: Number(row.no), variants: row.variants }))
    }
    await waitFor(
      async () => isDeepStrictEqual(await counted('of.boolean'), [{ yes: 2, no: 0, variants: {} }]),
      'the boolean counts at the service',
      5_000,
    )
    expect(await counted('of.string')).toEqual([{ yes: 1, no: 0, variants: { blue: 1 } }])
  })
})
