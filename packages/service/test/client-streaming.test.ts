// `GET /api/client/streaming` (issue 18): server-sent events as the Node SDK's streaming mode reads
// them. The real `unleash-client` in `experimentalMode: { type: 'streaming' }` is the judge; raw
// streams check the wire details (ids, Last-Event-ID replay, keep-alives, revoked tokens).
import { once } from 'node:events'
import { InMemStorageProvider, Unleash } from 'unleash-client'
import { describe, expect, it } from 'vitest'
import { openStream } from '@vexil/test-fixtures/event-stream.ts'
import { tempDir } from '@vexil/test-fixtures/temp-dir.ts'
import { timeUntil } from '@vexil/test-fixtures/wait-for.ts'
import { silentLogger } from '../src/logger.js'
import { startService } from '../src/server.js'
import { databaseDrivers } from './helpers/drivers.js'
import { createFlag, startTestService, type TestService } from './helpers/service.js'

const drivers = await databaseDrivers('client-streaming')

const on = (service: TestService, flag: string, enabled: boolean) =>
  service.api('POST', `/api/admin/projects/default/features/${flag}/environments/development/${enabled ? 'on' : 'off'}`)

async function flagWithRollout(service: TestService, name: string): Promise<void> {
  await createFlag(service, 'default', name)
  await service.api('POST', `/api/admin/projects/default/features/${name}/environments/development/strategies`, {
    body: { name: 'default' },
  })
}

function streamingClient(service: TestService, token: string): Unleash {
  const client = new Unleash({
    url: `${service.url}/api/`,
    appName: 'streaming-test',
    customHeaders: { Authorization: token },
    disableMetrics: true,
    refreshInterval: 60_000,
    storageProvider: new InMemStorageProvider(),
    experimentalMode: { type: 'streaming' },
  })
  client.on('error', () => {})
  client.on('warn', () => {})
  return client
}

describe('GET /api/client/streaming', () => {
  it('the real unleash-client in streaming mode gets each change at once, and stays streaming', async () => {
    const service = await startTestService()
    await flagWithRollout(service, 'streamed')
    const client = streamingClient(service, await service.clientToken('development'))
    const modes: unknown[] = []
    client.on('mode', (mode) => modes.push(mode))
    try {
      await once(client, 'synchronized')
      expect(client.isEnabled('streamed')).toBe(false)
      for (const enabled of [true, false, true]) {
        await on(service, 'streamed', enabled)
        const took = await timeUntil(() => client.isEnabled('streamed') === enabled, `streamed ${enabled}`)
        expect(took).toBeLessThan(1_000)
      }
      await createFlag(service, 'default', 'created-later')
      await timeUntil(() => client.getFeatureToggleDefinition('created-later') !== undefined, 'created-later')
      await service.api('DELETE', '/api/admin/projects/default/features/created-later')
      await timeUntil(() => client.getFeatureToggleDefinition('created-later') === undefined, 'created-later removed')
      expect(modes).toEqual([])
    } finally {
      client.destroy()
      await service.close()
    }
  }, 30_000)

  it('sends ids, replays from Last-Event-ID, keeps alive, and ends the stream of a deleted token', async () => {
    const service = await startTestService({ env: { STREAMING_KEEPALIVE_MS: '100' } })
    try {
      await flagWithRollout(service, 'wire')
      const token = await service.clientToken('development')
      const url = `${service.url}/api/client/streaming`
      const stream = await openStream(url, { authorization: token })
      expect(stream.status).toBe(200)
      expect(stream.headers.get('content-type')).toBe('text/event-stream')
      const connected = await stream.next()
      expect(connected.event).toBe('unleash-connected')
      const hydration = JSON.parse(connected.data).events
      expect(hydration.map((event: { type: string }) => event.type)).toEqual(['hydration'])
      expect(connected.id).toBe(String(hydration[0].eventId))

      await on(service, 'wire', true)
      const updated = await stream.next()
      expect(updated.event).toBe('unleash-updated')
      expect(JSON.parse(updated.data).events).toMatchObject([
        { type: 'feature-updated', feature: { name: 'wire', enabled: true } },
      ])
      expect(Number(updated.id)).toBeGreaterThan(Number(connected.id))
      await timeUntil(() => stream.comments >= 2, 'two keep-alives', { timeoutMs: 2_000 })

      // Reconnecting with the first id replays just the change since; with the latest, nothing.
      const replay = await openStream(url, { authorization: token, 'last-event-id': connected.id! })
      const replayed = await replay.next()
      expect(replayed).toMatchObject({ event: 'unleash-connected', id: updated.id })
      expect(JSON.parse(replayed.data)).toEqual(JSON.parse(updated.data))
      replay.close()
      const current = await openStream(url, { authorization: token, 'last-event-id': updated.id! })
      expect(await current.next()).toEqual({ event: 'unleash-connected', id: undefined, data: '{"events":[]}' })
      current.close()

      // A deleted token's stream ends at the next keep-alive; reconnecting is refused.
      const [row] = await service.db.query<{ id: number }>("SELECT id FROM api_tokens WHERE type = 'client'")
      expect((await service.api('DELETE', `/api/admin/api-tokens/${row!.id}`)).status).toBe(200)
      await Promise.race([
        stream.ended,
        new Promise((_, reject) => setTimeout(() => reject(new Error('stream still open')), 2_000)),
      ])
      expect((await openStream(url, { authorization: token })).status).toBe(401)
    } finally {
      await service.close()
    }
  }, 30_000)

  it('STREAMING=false: both routes 404 and the streaming SDK falls back to polling', async () => {
    const service = await startTestService({ env: { STREAMING: 'false' } })
    const token = await service.clientToken('development')
    await flagWithRollout(service, 'polled')
    await on(service, 'polled', true)
    const client = streamingClient(service, token)
    const warnings: string[] = []
    client.on('warn', (message) => warnings.push(String(message)))
    try {
      expect((await service.api('GET', '/api/client/streaming', { token })).status).toBe(404)
      expect((await service.api('GET', '/api/client/delta', { token })).status).toBe(404)
      // unleash-client 6.12 warns "Not Found" and polls /api/client/features (it emits no 'mode' event).
      await timeUntil(() => client.isEnabled('polled'), 'polled on')
      expect(warnings).toContain('Not Found')
    } finally {
      client.destroy()
      await service.close()
    }
  }, 30_000)

  it('STREAMING_MAX_CONNECTIONS: the stream past the limit gets 429 with Retry-After', async () => {
    const service = await startTestService({ env: { STREAMING_MAX_CONNECTIONS: '1' } })
    try {
      const token = await service.clientToken('development')
      const first = await openStream(`${service.url}/api/client/streaming`, { authorization: token })
      await first.next()
      const second = await fetch(`${service.url}/api/client/streaming`, { headers: { authorization: token } })
      expect(second.status).toBe(429)
      expect(second.headers.get('retry-after')).toBe('60')
      first.close()
    } finally {
      await service.close()
    }
  }, 30_000)
})

describe('a stream on the service as started (server.ts)', () => {
  it('outlives the request timeouts, and ends promptly when the service stops', async () => {
    const data = tempDir('streaming')
    const admin = '*:*.streaming-admin-secret-0123456789abcdef'
    const client = '*:development.streaming-client-secret-0123456789abcdef'
    const service = await startService({
      port: 0,
      host: '127.0.0.1',
      dataDir: data.path,
      logger: silentLogger,
      timeouts: { headersMs: 300, requestMs: 500 },
      env: { INIT_ADMIN_API_TOKENS: admin, INIT_CLIENT_API_TOKENS: client, STREAMING_KEEPALIVE_MS: '200' },
    })
    try {
      const stream = await openStream(`${service.url}/api/client/streaming`, { authorization: client })
      await stream.next()
      await new Promise((resolve) => setTimeout(resolve, 1_500))
      const created = await fetch(`${service.url}/api/admin/projects/default/features`, {
        method: 'POST',
        headers: { authorization: admin, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'after-the-timeouts' }),
      })
      expect(created.status).toBe(201)
      expect(JSON.parse((await stream.next()).data).events[0].feature.name).toBe('after-the-timeouts')
      const stopping = performance.now()
      await service.close()
      await stream.ended
      expect(performance.now() - stopping).toBeLessThan(3_000)
    } finally {
      await service.close()
      data.remove()
    }
  }, 30_000)
})

describe.each(drivers.filter((driver) => driver.name === 'postgres'))(
  'several instances on one $name',
  ({ open, openAgain }) => {
    const run = open ? it : it.skip
    run(
      'a change made through one instance reaches the streams of another at once',
      async () => {
        const first = await open!()
        const second = await openAgain!()
        const a = await startTestService({ db: first })
        const b = await startTestService({ db: second })
        await flagWithRollout(a, 'shared')
        const client = streamingClient(b, await b.clientToken('development'))
        try {
          await once(client, 'synchronized')
          expect(client.getFeatureToggleDefinition('shared')).toBeDefined()
          for (const enabled of [true, false]) {
            await on(a, 'shared', enabled)
            expect(await timeUntil(() => client.isEnabled('shared') === enabled, `shared ${enabled}`)).toBeLessThan(
              1_000,
            )
          }
        } finally {
          client.destroy()
          await a.close()
          await b.close()
          await first.close()
          await second.close()
        }
      },
      30_000,
    )
  },
)
