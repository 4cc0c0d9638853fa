// The Worker entry's cron trigger (src/runtime/cloudflare-worker/entry.ts `scheduled`), run in
// Node: with no request arriving, each trigger runs what is due (a poll of the upstream, a usage
// report) within the event's lifetime (`ctx.waitUntil`), and runs nothing that is not due.
// workerd runs the same module in cloudflare-worker.test.ts; its cron trigger cannot be fired
// there without wrangler.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeUpstream, type FakeUpstream } from '@vexil/test-fixtures/fake-upstream.ts'
import worker, { type WorkerContext } from '../src/runtime/cloudflare-worker/entry.js'

const INTERVAL_MS = 300
const KEY = 'scheduled-key'

/** An ExecutionContext that remembers what it was handed; `settled()` waits for all of it. */
function executionContext(): WorkerContext & { settled(): Promise<void>; handed: number } {
  const promises: Array<Promise<unknown>> = []
  return {
    waitUntil: (promise) => void promises.push(promise),
    settled: async () => void (await Promise.all(promises)),
    get handed() {
      return promises.length
    },
  }
}

const flags = (...names: string[]) => ({
  version: 2,
  features: names.map((name) => ({ name, enabled: true, strategies: [{ name: 'default' }] })),
})
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe("the Worker's cron trigger", () => {
  let upstream: FakeUpstream
  let env: Record<string, string>

  beforeAll(async () => {
    upstream = await startFakeUpstream(flags('first'))
    env = {
      SERVICE_URL: upstream.url,
      SERVICE_API_TOKEN: 'upstream-token-secret',
      SERVICE_PROXY_CLIENT_KEYS: KEY,
      SERVICE_FETCH_INTERVAL: String(INTERVAL_MS),
      SERVICE_METRICS_INTERVAL: String(INTERVAL_MS),
      LOG_LEVEL: 'error',
    }
  })

  afterAll(async () => {
    await upstream?.close()
  })

  const ask = async () => {
    const response = await worker.fetch(
      new Request('http://worker.test/proxy?userId=1', { headers: { authorization: KEY } }),
      env,
      executionContext(),
    )
    return (await response.json()) as { toggles: Array<{ name: string }> }
  }

  it('polls the upstream when the refresh interval has passed, with no request arriving', async () => {
    expect((await ask()).toggles.map((t) => t.name)).toEqual(['first'])
    upstream.setFeatures(flags('first', 'second'))
    const before = upstream.requestsTo('/client/features').length
    await sleep(INTERVAL_MS + 50)
    const ctx = executionContext()
    await worker.scheduled(undefined, env, ctx)
    expect(ctx.handed).toBe(1)
    await ctx.settled()
    expect(upstream.requestsTo('/client/features').length).toBe(before + 1)
    // The answer is already new: the trigger's poll changed the flags, not this request.
    expect((await ask()).toggles.map((t) => t.name)).toEqual(['first', 'second'])
  })

  it('sends the usage counts when the metrics interval has passed', async () => {
    const now = new Date().toISOString()
    const posted = await worker.fetch(
      new Request('http://worker.test/proxy/client/metrics', {
        method: 'POST',
        headers: { authorization: KEY, 'content-type': 'application/json' },
        body: JSON.stringify({
          appName: 'web',
          instanceId: 'i',
          bucket: { start: now, stop: now, toggles: { first: { yes: 4, no: 1, variants: {} } } },
        }),
      }),
      env,
      executionContext(),
    )
    expect(posted.status).toBe(200)
    await sleep(INTERVAL_MS + 50)
    const ctx = executionContext()
    await worker.scheduled(undefined, env, ctx)
    await ctx.settled()
    const counted = upstream
      .requestsTo('/client/metrics')
      .map(
        (request) =>
          (JSON.parse(request.body) as { bucket: { toggles: Record<string, { yes: number }> } }).bucket.toggles.first
            ?.yes ?? 0,
      )
      .reduce((sum, yes) => sum + yes, 0)
    expect(counted).toBeGreaterThanOrEqual(4)
  })

  it('does nothing upstream when nothing is due', async () => {
    const ctx = executionContext()
    await worker.scheduled(undefined, env, ctx)
    await ctx.settled()
    const before = upstream.requests.length
    const again = executionContext()
    await worker.scheduled(undefined, env, again)
    await again.settled()
    expect(upstream.requests.length).toBe(before)
  })
})
