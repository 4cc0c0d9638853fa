// The provider against a fake upstream without a stream (test-fixtures/fake-upstream.ts: a real
// node:http server on 127.0.0.1 with ETag/304, registrations and metrics), through the
// OpenFeature SDK as an app uses it: every type of value, the identifying headers, changes as
// ConfigurationChanged, the last good flags served while the upstream misbehaves, a refused
// client key, the bootstrap and the backup file when it is down, metrics delivered.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { type EventDetails, OpenFeature, ProviderEvents, ProviderStatus } from '@openfeature/server-sdk'
import { type FakeUpstream, startFakeUpstream } from '@vexil/test-fixtures/fake-upstream.ts'
import { freePort } from '@vexil/test-fixtures/ports.ts'
import { tempDir } from '@vexil/test-fixtures/temp-dir.ts'
import { waitFor } from '@vexil/test-fixtures/wait-for.ts'
import { VexilProvider, type VexilProviderOptions } from '../src/index.js'
import { KINDS_PAYLOAD, recordingLogger } from './helpers.js'

const KEY = 'default:development.polling-test-client-key'
const flag = (name: string, enabled = true) => ({ name, enabled, strategies: [{ name: 'default', parameters: {} }] })
const payload = (...features: unknown[]) => ({ version: 2, features, segments: [] })

const cleanups: Array<() => unknown> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})
afterAll(() => OpenFeature.clearProviders())

let domains = 0
/** A provider on `url`, set in a domain of its own through the SDK (not awaited); closed after the test. */
function providerFor(url: string, options: Partial<VexilProviderOptions> = {}) {
  const logger = recordingLogger()
  const provider = new VexilProvider({
    url,
    clientKey: KEY,
    appName: 'polling-test',
    refreshInterval: 100,
    metricsInterval: 0,
    timeout: 2_000,
    logger,
    ...options,
  })
  const domain = `polling-${++domains}`
  const events: Array<{ type: ProviderEvents; details: EventDetails | undefined }> = []
  for (const type of [
    ProviderEvents.Ready,
    ProviderEvents.Stale,
    ProviderEvents.Error,
    ProviderEvents.ConfigurationChanged,
  ])
    provider.events.addHandler(type, (details) => void events.push({ type, details }))
  cleanups.push(() => provider.onClose())
  const ready = OpenFeature.setProviderAndWait(domain, provider)
  ready.catch(() => undefined)
  return { provider, logger, events, ready, client: OpenFeature.getClient(domain) }
}

async function upstream(initial: unknown): Promise<FakeUpstream> {
  const fake = await startFakeUpstream(initial)
  cleanups.push(() => fake.close())
  return fake
}

describe('VexilProvider polling a fake upstream', () => {
  it('serves every type of value through the SDK once ready, with the identifying headers', async () => {
    const fake = await upstream(KINDS_PAYLOAD)
    const { client, ready } = providerFor(fake.url, {
      metricsInterval: 60_000,
      instanceId: 'instance-1',
      headers: { 'X-Extra': 'yes', Authorization: 'not this one' },
      strategies: [{ name: 'mine', isEnabled: () => true }],
    })
    await ready
    expect(client.providerStatus).toBe(ProviderStatus.READY)
    expect(await client.getBooleanValue('bool-users', false, { targetingKey: 'u1' })).toBe(true)
    expect(await client.getBooleanValue('bool-users', true, { targetingKey: 'u9' })).toBe(false)
    expect(await client.getStringValue('string', 'red')).toBe('navy')
    expect(await client.getNumberValue('number', 0)).toBe(42)
    expect(await client.getObjectValue('object', {})).toEqual({ columns: 3, dense: true })

    const [get] = fake.requestsTo('/client/features')
    expect(get!.headers).toMatchObject({
      authorization: KEY,
      'unleash-appname': 'polling-test',
      'user-agent': 'polling-test',
      'unleash-instanceid': 'instance-1',
      'unleash-sdk': 'vexil-openfeature:0.1.0',
      'unleash-interval': '100',
      'x-extra': 'yes',
    })
    expect(get!.headers['unleash-connection-id']).toMatch(/^[0-9a-f-]{36}$/)
    await fake.waitFor((requests) => requests.some((r) => r.path === '/client/register'))
    const register = JSON.parse(fake.requestsTo('/client/register')[0]!.body)
    expect(register).toMatchObject({
      appName: 'polling-test',
      instanceId: 'instance-1',
      sdkVersion: 'vexil-openfeature:0.1.0',
      interval: 60_000,
    })
    expect(register.strategies).toEqual(expect.arrayContaining(['default', 'flexibleRollout', 'userWithId', 'mine']))
    expect(Date.parse(register.started)).not.toBeNaN()
  })

  it('polls with If-None-Match, and a change is a ConfigurationChanged naming the flags', async () => {
    const fake = await upstream(payload(flag('a'), flag('b')))
    const { client, ready, events } = providerFor(fake.url)
    await ready
    await fake.waitFor((requests) => requests.filter((r) => r.path === '/client/features').length >= 3)
    const etag = fake.requestsTo('/client/features')[0]!.headers['if-none-match']
    expect(etag).toBeUndefined()
    expect(fake.requestsTo('/client/features')[2]!.headers['if-none-match']).toMatch(/^"[0-9a-f]+"$/)
    expect(events.filter((e) => e.type === ProviderEvents.ConfigurationChanged)).toEqual([])

    fake.setFeatures(payload(flag('a', false), flag('b'), flag('c')))
    await waitFor(
      async () => events.some((e) => e.type === ProviderEvents.ConfigurationChanged),
      'ConfigurationChanged',
      3_000,
    )
    expect(events.find((e) => e.type === ProviderEvents.ConfigurationChanged)!.details).toMatchObject({
      flagsChanged: ['a', 'c'],
    })
    expect(await client.getBooleanValue('a', true)).toBe(false)
    expect(await client.getBooleanValue('c', false)).toBe(true)
  })

  it('keeps serving the last good flags while the upstream fails, says Stale, and Ready when it is back', async () => {
    const fake = await upstream(payload(flag('a')))
    const { client, ready, events, logger } = providerFor(fake.url)
    await ready
    fake.fail({ status: 500, body: 'broken' }, '/client/features')
    await waitFor(async () => events.some((e) => e.type === ProviderEvents.Stale), 'Stale', 3_000)
    expect(client.providerStatus).toBe(ProviderStatus.STALE)
    expect(await client.getBooleanValue('a', false)).toBe(true)
    fake.fail(undefined, '/client/features')
    fake.drop(true, '/client/features')
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(await client.getBooleanValue('a', false)).toBe(true)
    fake.drop(false, '/client/features')
    fake.setFeatures(payload(flag('a', false)))
    // Backed off (up to 10 x 100 ms): back within a few seconds.
    await waitFor(async () => events.some((e) => e.type === ProviderEvents.Ready), 'Ready', 5_000)
    expect(client.providerStatus).toBe(ProviderStatus.READY)
    await waitFor(async () => !(await client.getBooleanValue('a', true)), 'the new flags', 3_000)
    expect(logger.lines.some((line) => line.includes('500'))).toBe(true)
  })

  it('a client key the upstream refuses, with nothing to serve: initialization fails, saying so', async () => {
    const fake = await upstream(payload(flag('a')))
    fake.fail({ status: 401, body: 'Unauthorized' }, '/client/features')
    const { client, ready, events } = providerFor(fake.url)
    await expect(ready).rejects.toThrow(/refused the client key \(401/)
    expect(client.providerStatus).toBe(ProviderStatus.ERROR)
    expect(await client.getBooleanDetails('a', false)).toMatchObject({ value: false, errorCode: 'PROVIDER_NOT_READY' })
    // It keeps trying (at the longest backoff): a key accepted later makes it Ready.
    fake.fail(undefined, '/client/features')
    await waitFor(
      async () => events.some((e) => e.type === ProviderEvents.Ready),
      'Ready after the key is accepted',
      5_000,
    )
    expect(await client.getBooleanValue('a', false)).toBe(true)
  })

  it('an unreachable upstream with a bootstrap: ready at once on the bootstrap, Stale', async () => {
    const port = await freePort()
    const { client, ready, events, logger } = providerFor(`http://127.0.0.1:${port}/api`, {
      bootstrap: payload(flag('from-bootstrap')),
    })
    await ready
    expect(await client.getBooleanValue('from-bootstrap', false)).toBe(true)
    await waitFor(async () => events.some((e) => e.type === ProviderEvents.Stale), 'Stale', 2_000)
    expect(client.providerStatus).toBe(ProviderStatus.STALE)
    expect(logger.lines.join('\n')).toMatch(/serving the bootstrap until the upstream answers/)
  })

  it('an unreachable upstream with nothing to serve: initialization fails', async () => {
    const port = await freePort()
    const { ready } = providerFor(`http://127.0.0.1:${port}/api`)
    await expect(ready).rejects.toThrow(/no flags to serve: fetching flags from the upstream failed/)
  })

  it('a refused key with a bootstrap: ready on the bootstrap, then Error', async () => {
    const fake = await upstream(payload(flag('a')))
    fake.fail({ status: 403 }, '/client/features')
    const { client, ready, events } = providerFor(fake.url, { bootstrap: payload(flag('from-bootstrap')) })
    await ready
    await waitFor(async () => events.some((e) => e.type === ProviderEvents.Error), 'Error', 2_000)
    expect(events.find((e) => e.type === ProviderEvents.Error)!.details?.message).toMatch(/403/)
    expect(await client.getBooleanValue('from-bootstrap', false)).toBe(true)
  })

  it('keeps the last good flags in the backup file, and serves them at a start with the upstream down', async () => {
    const dir = tempDir('openfeature-backup')
    cleanups.push(dir.remove)
    const backupPath = join(dir.path, 'flags.json')
    const fake = await upstream(payload(flag('a'), flag('b', false)))
    const first = providerFor(fake.url, { backupPath })
    await first.ready
    fake.setFeatures(payload(flag('a'), flag('b')))
    await waitFor(
      async () =>
        existsSync(backupPath) &&
        JSON.parse(readFileSync(backupPath, 'utf8')).features.length === 2 &&
        JSON.parse(readFileSync(backupPath, 'utf8')).features[1].enabled,
      'the backup of the second payload',
      3_000,
    )
    await first.provider.onClose()
    await fake.close()

    // Restart with the upstream gone: the backup wins over the bootstrap.
    const second = providerFor(fake.url, { backupPath, bootstrap: payload(flag('from-bootstrap')) })
    await second.ready
    expect(await second.client.getBooleanValue('b', false)).toBe(true)
    expect(await second.client.getBooleanDetails('from-bootstrap', false)).toMatchObject({
      errorCode: 'FLAG_NOT_FOUND',
    })
    expect(second.logger.lines.join('\n')).toContain(`serving the backup file ${backupPath}`)
  })

  it('sends usage metrics every metricsInterval, keeps a bucket the upstream refused, and sends the rest on close', async () => {
    const fake = await upstream(KINDS_PAYLOAD)
    const { provider, client, ready } = providerFor(fake.url, { metricsInterval: 200, environment: 'production' })
    await ready
    fake.fail({ status: 503 }, '/client/metrics')
    await client.getBooleanValue('bool-on', false)
    await client.getBooleanValue('bool-users', false, { targetingKey: 'u9' })
    await client.getStringValue('string', 'red')
    await fake.waitFor((requests) => requests.some((r) => r.path === '/client/metrics'))
    fake.fail(undefined, '/client/metrics')
    const refused = fake.requestsTo('/client/metrics').length
    await client.getBooleanValue('bool-on', false)
    await fake.waitFor((requests) => requests.filter((r) => r.path === '/client/metrics').length > refused)
    const sent = JSON.parse(fake.requestsTo('/client/metrics')[refused]!.body)
    expect(sent).toMatchObject({ appName: 'polling-test', environment: 'production', instanceId: expect.any(String) })
    expect(sent.bucket.toggles).toEqual({
      'bool-on': { yes: 2, no: 0, variants: {} },
      'bool-users': { yes: 0, no: 1, variants: {} },
      string: { yes: 1, no: 0, variants: { blue: 1 } },
    })
    expect(Date.parse(sent.bucket.start)).toBeLessThanOrEqual(Date.parse(sent.bucket.stop))

    await client.getBooleanValue('bool-off', true)
    const before = fake.requestsTo('/client/metrics').length
    await provider.onClose()
    const last = JSON.parse(fake.requestsTo('/client/metrics')[before]!.body)
    expect(last.bucket.toggles).toEqual({ 'bool-off': { yes: 0, no: 1, variants: {} } })
  })
})
