// The upstream client over fetch, as both its users call it: the identifying headers no caller
// can replace, filters on the features and streaming URLs, and the event source's endings worded
// for the feed's log line ("The upstream's stream ...").
import { describe, expect, it } from 'vitest'
import {
  createUpstreamClient,
  type EventSourceHandlers,
  fetchEventSource,
  type FetchFunction,
  fetchRequest,
  type StreamEvent,
} from '../src/index.js'

interface Call {
  url: string
  headers: Record<string, string>
  body: string | undefined
}

function recordingFetch(
  answer: (url: string, signal: AbortSignal | undefined) => Response | Promise<Response>,
): FetchFunction & { calls: Call[] } {
  const calls: Call[] = []
  const fetch = async (url: string, init: RequestInit) => {
    calls.push({ url, headers: init.headers as Record<string, string>, body: init.body as string | undefined })
    return answer(url, init.signal ?? undefined)
  }
  return Object.assign(fetch, { calls })
}

function clientOver(fetch: FetchFunction) {
  return createUpstreamClient({
    apiUrl: 'http://upstream.test/api',
    query: 'project=p1',
    token: 'the-token',
    appName: 'app',
    instanceId: 'instance',
    connectionId: 'connection',
    environment: 'production',
    sdk: 'test-sdk:1.0.0',
    strategies: ['mine'],
    refreshInterval: 15_000,
    metricsInterval: 60_000,
    headers: { authorization: 'not this one', 'unleash-sdk': 'nor this', 'x-extra': 'yes' },
    timeoutMs: 1_000,
    send: fetchRequest(fetch),
    openEventSource: fetchEventSource(fetch, 1_000),
  })
}

/** Opens a stream and resolves with what its handlers saw once it closes. */
function streamOf(fetch: FetchFunction, connectTimeoutMs = 1_000, readTimeoutMs = 60_000) {
  const seen: { status?: number; events: StreamEvent[]; error?: Error | undefined } = { events: [] }
  return new Promise<typeof seen>((resolve) => {
    const handlers: EventSourceHandlers = {
      onOpen: (status) => void (seen.status = status),
      onEvent: (event) => void seen.events.push(event),
      onActivity: () => undefined,
      onClose: (error) => resolve({ ...seen, error }),
    }
    fetchEventSource(fetch, connectTimeoutMs)(
      'http://upstream.test/api/client/streaming',
      { headers: {}, rejectUnauthorized: true, readTimeoutMs },
      handlers,
    )
  })
}

const never = (signal: AbortSignal | undefined) =>
  new Promise<Response>((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason)))

describe('the upstream client over fetch', () => {
  it('sends the identifying headers, which extra headers cannot replace, and the filters', async () => {
    const fetch = recordingFetch(() => new Response('{"features":[]}', { status: 200, headers: { etag: '"1"' } }))
    const answer = await clientOver(fetch).fetchFeatures('"0"')
    expect(answer).toMatchObject({ status: 200, body: '{"features":[]}', headers: { etag: '"1"' } })
    const [call] = fetch.calls
    expect(call!.url).toBe('http://upstream.test/api/client/features?project=p1')
    expect(call!.headers).toMatchObject({
      authorization: 'the-token',
      'unleash-sdk': 'test-sdk:1.0.0',
      'unleash-connection-id': 'connection',
      'unleash-appname': 'app',
      'unleash-interval': '15000',
      'if-none-match': '"0"',
      'x-extra': 'yes',
    })
    // The runtime negotiates compression itself.
    expect(call!.headers).not.toHaveProperty('accept-encoding')
  })

  it('registers with the built-in and custom strategies and the environment, and posts metrics', async () => {
    const fetch = recordingFetch(() => new Response(null, { status: 202 }))
    const client = clientOver(fetch)
    await client.register()
    await client.sendMetrics({
      start: '2026-01-01T00:00:00.000Z',
      stop: '2026-01-01T00:01:00.000Z',
      toggles: { a: { yes: 1, no: 0, variants: {} } },
    })
    const [register, metrics] = fetch.calls.map((call) => JSON.parse(call.body!))
    expect(register).toMatchObject({
      appName: 'app',
      instanceId: 'instance',
      connectionId: 'connection',
      sdkVersion: 'test-sdk:1.0.0',
      environment: 'production',
      interval: 60_000,
    })
    expect(register.strategies).toEqual(expect.arrayContaining(['default', 'flexibleRollout', 'mine']))
    expect(metrics).toMatchObject({ appName: 'app', environment: 'production', bucket: { toggles: { a: { yes: 1 } } } })
  })

  it('a request past its timeout rejects, naming the URL and the timeout', async () => {
    const send = fetchRequest(async (_, init) => never(init.signal ?? undefined))
    await expect(
      send('http://upstream.test/api/client/features', {
        method: 'GET',
        headers: {},
        timeoutMs: 20,
        rejectUnauthorized: true,
      }),
    ).rejects.toThrow('request to http://upstream.test/api/client/features timed out after 20 ms')
  })
})

describe('the event source over fetch', () => {
  it('hands over every message, then says the upstream ended the stream', async () => {
    const fetch = recordingFetch(
      () =>
        new Response('event: unleash-connected\nid: 1\ndata: {"features":[]}\n\n', {
          status: 200,
          headers: { 'content-type': 'text/event-stream' },
        }),
    )
    const seen = await streamOf(fetch)
    expect(seen.status).toBe(200)
    expect(seen.events).toEqual([{ event: 'unleash-connected', id: '1', data: '{"features":[]}' }])
    expect(seen.error?.message).toBe('was ended by the upstream')
  })

  it('an answer that is no event stream closes without an error, after its status', async () => {
    const seen = await streamOf(recordingFetch(() => new Response('not here', { status: 404 })))
    expect(seen).toMatchObject({ status: 404, events: [], error: undefined })
  })

  it('no answer within the connect timeout, or no byte within the read timeout, says so', async () => {
    expect(
      (
        await streamOf(
          recordingFetch((_, signal) => never(signal)),
          20,
        )
      ).error?.message,
    ).toBe('did not answer within 20 ms')
    const silent = new ReadableStream({ start: () => undefined })
    const seen = await streamOf(
      recordingFetch(() => new Response(silent, { status: 200, headers: { 'content-type': 'text/event-stream' } })),
      1_000,
      20,
    )
    expect(seen.error?.message).toBe('had no data for 20 ms')
  })
})
