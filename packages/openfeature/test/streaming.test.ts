// The provider on an upstream's stream of changes (a fake one here: streaming-upstream.ts; the
// real Vexil service and proxy in vexil-servers.test.ts): ready from the stream's hydration, a
// change within milliseconds, polling only while the stream is down, resuming from Last-Event-ID;
// an upstream without a stream is polled.
import { afterEach, describe, expect, it } from 'vitest'
import { type EventDetails, ProviderEvents } from '@openfeature/server-sdk'
import { timeUntil, waitFor } from '@vexil/test-fixtures/wait-for.ts'
import { VexilProvider, type VexilProviderOptions } from '../src/index.js'
import { recordingLogger } from './helpers.js'
import { type StreamingUpstream, startStreamingUpstream } from './streaming-upstream.js'

const flag = (name: string, enabled = true) => ({ name, enabled, strategies: [{ name: 'default', parameters: {} }] })

const cleanups: Array<() => unknown> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function setUp(options: Partial<VexilProviderOptions> = {}) {
  const upstream = await startStreamingUpstream([flag('a'), flag('b', false)])
  cleanups.push(() => upstream.close())
  const logger = recordingLogger()
  const provider = new VexilProvider({
    url: upstream.url,
    clientKey: 'streaming-key',
    appName: 'streaming-test',
    refreshInterval: 100,
    metricsInterval: 0,
    logger,
    ...options,
  })
  cleanups.push(() => provider.onClose())
  const changes: Array<EventDetails | undefined> = []
  provider.events.addHandler(ProviderEvents.ConfigurationChanged, (details) => void changes.push(details))
  const enabled = async (name: string) => (await provider.resolveBooleanEvaluation(name, false, {})).value
  return { upstream, provider, logger, changes, enabled }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const features = (upstream: StreamingUpstream) => upstream.requestsTo('/client/features').length

describe('VexilProvider on a stream of changes', () => {
  it('is ready from the stream, without polling, and gets each change within milliseconds', async () => {
    const { upstream, provider, changes, enabled } = await setUp()
    await provider.initialize()
    expect(await enabled('a')).toBe(true)
    expect(upstream.requestsTo('/client/streaming')[0]).toMatchObject({
      authorization: 'streaming-key',
      lastEventId: undefined,
    })
    upstream.update(flag('b'))
    const took = await timeUntil(async () => (await enabled('b')) === true, 'the streamed change', { timeoutMs: 2_000 })
    expect(took).toBeLessThan(500)
    expect(changes).toEqual([expect.objectContaining({ flagsChanged: ['b'] })])
    await sleep(300)
    expect(features(upstream)).toBe(0)
  })

  it('polls while the stream is down, and resumes it from the last event id', async () => {
    const { upstream, provider, logger, enabled } = await setUp()
    await provider.initialize()
    upstream.update(flag('b'))
    await waitFor(async () => enabled('b'), 'b on')
    upstream.refuseStreams(503)
    upstream.dropStreams()
    // Polled meanwhile: a change made during the outage arrives by the poll.
    upstream.update(flag('a', false))
    await waitFor(async () => (await enabled('a')) === false, 'the change made while the stream was down', 3_000)
    expect(features(upstream)).toBeGreaterThan(0)
    expect(logger.lines.join('\n')).toMatch(/stream .*polling meanwhile, reconnecting in 1000 ms/)
    upstream.refuseStreams(undefined)
    await waitFor(async () => upstream.openStreams === 1, 'the stream to be back', 5_000)
    const reconnects = upstream.requestsTo('/client/streaming').filter((r) => r.lastEventId !== undefined)
    expect(reconnects.at(-1)!.lastEventId).toBe('2')
    // Back on the stream: polling stops, changes stream again.
    await sleep(250)
    const polled = features(upstream)
    upstream.update(flag('c'))
    await waitFor(async () => enabled('c'), 'c by the stream', 1_000)
    await sleep(300)
    expect(features(upstream)).toBe(polled)
  })

  it.each([404, 405, 501, 401, 403])('an upstream answering %i to the stream is polled, for good', async (status) => {
    const { upstream, provider, enabled } = await setUp()
    upstream.refuseStreams(status)
    await provider.initialize()
    expect(await enabled('a')).toBe(true)
    await sleep(1_300)
    expect(upstream.requestsTo('/client/streaming')).toHaveLength(1)
    expect(features(upstream)).toBeGreaterThan(3)
  })

  it('a stream that does not answer within the timeout is polled meanwhile', async () => {
    const { upstream, provider, enabled, logger } = await setUp({ timeout: 300 })
    upstream.refuseStreams('hang')
    const took = await timeUntil(
      async () => {
        await provider.initialize()
        return true
      },
      'initialization',
      { timeoutMs: 3_000 },
    )
    expect(took).toBeLessThan(1_500)
    expect(await enabled('a')).toBe(true)
    expect(logger.lines.join('\n')).toMatch(/stream did not answer within 300 ms; polling meanwhile/)
  })

  it('streaming: false never asks for the stream', async () => {
    const { upstream, provider, enabled } = await setUp({ streaming: false })
    await provider.initialize()
    expect(await enabled('a')).toBe(true)
    expect(upstream.requestsTo('/client/streaming')).toHaveLength(0)
  })
})
