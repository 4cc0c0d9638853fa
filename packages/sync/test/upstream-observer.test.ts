// The upstream client's observer hook: every call told once as it ends, by kind and by outcome
// (its status class, or network_error when no answer came) with its status and duration, and a
// stream as it opens or fails to.
import { describe, expect, it } from 'vitest'
import {
  createUpstreamClient,
  type EventSourceHandlers,
  type HttpResponse,
  type OpenEventSource,
  type SendRequest,
  type UpstreamCallKind,
  type UpstreamOutcome,
} from '../src/index.js'

const noop: EventSourceHandlers = { onOpen() {}, onEvent() {}, onActivity() {}, onClose() {} }
const answer = (status: number): HttpResponse => ({ status, headers: {}, body: '{}' })

function observedClient(send: SendRequest, openEventSource: OpenEventSource) {
  const seen: Array<[UpstreamCallKind, UpstreamOutcome]> = []
  /** Each call's status (undefined for no answer) and duration, as told beside its outcome. */
  const answered: Array<{ status: number | undefined; durationMs: number }> = []
  const client = createUpstreamClient({
    apiUrl: 'http://upstream.test/api',
    token: 'the-token',
    appName: 'app',
    instanceId: 'instance',
    connectionId: 'connection',
    sdk: 'test-sdk:1.0.0',
    strategies: [],
    refreshInterval: 15_000,
    metricsInterval: 60_000,
    timeoutMs: 1_000,
    send,
    openEventSource,
    observe: (kind, outcome, status, durationMs) => {
      seen.push([kind, outcome])
      answered.push({ status, durationMs })
    },
  })
  return { client, seen, answered }
}

describe('upstream client observer', () => {
  it('tells each call by kind and outcome: ok, not_modified, client_error, server_error, network_error', async () => {
    const statuses = [200, 304, 401, 503]
    const send: SendRequest = async () => {
      const status = statuses.shift()
      if (status === undefined) throw new Error('connect ECONNREFUSED')
      return answer(status)
    }
    const { client, seen, answered } = observedClient(send, () => () => undefined)
    await client.fetchFeatures(undefined)
    await client.fetchFeatures('"etag"')
    await client.register()
    await client.sendMetrics({ start: '', stop: '', toggles: {} })
    await expect(client.sendBulk!({ start: '', stop: '', toggles: {} })).rejects.toThrow('ECONNREFUSED')
    expect(seen).toEqual([
      ['features', 'ok'],
      ['features', 'not_modified'],
      ['register', 'client_error'],
      ['metrics', 'server_error'],
      ['metrics', 'network_error'],
    ])
    expect(answered.map(({ status }) => status)).toEqual([200, 304, 401, 503, undefined])
    for (const { durationMs } of answered) expect(durationMs).toBeGreaterThanOrEqual(0)
  })

  it('tells a stream once as it opens, or as it fails before opening; an ending after opening is not a call', () => {
    const opened: EventSourceHandlers[] = []
    const { client, seen, answered } = observedClient(
      async () => answer(200),
      (_url, _options, handlers) => {
        opened.push(handlers)
        return () => undefined
      },
    )
    client.openStream(undefined, noop)
    opened[0]!.onOpen(200, {})
    opened[0]!.onClose(new Error('ended by the upstream'))
    client.openStream(undefined, noop)
    opened[1]!.onClose(new Error('connect ECONNREFUSED'))
    client.openStream(undefined, noop)
    opened[2]!.onOpen(403, {})
    expect(seen).toEqual([
      ['streaming', 'ok'],
      ['streaming', 'network_error'],
      ['streaming', 'client_error'],
    ])
    expect(answered.map(({ status }) => status)).toEqual([200, undefined, 403])
  })
})
