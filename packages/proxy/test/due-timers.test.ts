// The due-task timers the Worker drives (@vexil/sync's timers.ts), and the sync code on them: a poller
// and a usage reporter that never see a real timer fire, driven only by runDue as the Worker
// drives them (after each request, and by its cron trigger).
import { describe, expect, it } from 'vitest'
import { createLogger } from '../src/logger.js'
import { createScopeFlags } from '../src/scope/scope-flags.js'
import {
  createDueTimers,
  createPoller,
  createUsageAggregator,
  createUsageReporter,
  type HttpResponse,
} from '@vexil/sync'
import type { Upstream } from '../src/upstream/upstream.js'
import { createEngine } from '@vexil/engine'

const logger = createLogger({ level: 'error', json: false })
const ok = (body: unknown, etag?: string): HttpResponse => ({
  status: 200,
  headers: etag ? { etag } : {},
  body: JSON.stringify(body),
})

function fakeUpstream(answers: Array<HttpResponse | Error>): Upstream & { fetches: number; metrics: unknown[] } {
  const calls = { fetches: 0, metrics: [] as unknown[] }
  return Object.assign(calls, {
    async fetchFeatures() {
      const answer = answers[Math.min(calls.fetches++, answers.length - 1)]!
      if (answer instanceof Error) throw answer
      return answer
    },
    openStream: () => () => undefined,
    register: async () => ({ status: 202, headers: {}, body: '' }),
    async sendMetrics(bucket: unknown) {
      calls.metrics.push(bucket)
      return { status: 202, headers: {}, body: '' }
    },
    fetchBootstrap: async () => ({ status: 404, headers: {}, body: '' }),
    validateTokens: async () => ({ status: 200, headers: {}, body: '{"tokens":[]}' }),
  })
}

describe('due timers', () => {
  it('runs only what is due, once, in order, and waits for the work the tasks return', async () => {
    let now = 1_000
    const timers = createDueTimers(() => now)
    const ran: string[] = []
    let finished = false
    timers.set(() => ran.push('b'), 200)
    timers.set(() => ran.push('a'), 100)
    const cleared = timers.set(() => ran.push('never'), 50)
    timers.set(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20))
      finished = true
    }, 150)
    timers.clear(cleared)
    expect(timers.nextDue).toBe(1_100)
    await timers.runDue()
    expect(ran).toEqual([])
    now = 1_160
    await timers.runDue()
    expect(ran).toEqual(['a'])
    expect(finished).toBe(true)
    now = 5_000
    await timers.runDue()
    await timers.runDue()
    expect(ran).toEqual(['a', 'b'])
    expect(timers.pending).toBe(0)
  })

  it('a task that throws or rejects does not stop the others', async () => {
    const timers = createDueTimers(() => 0)
    let ran = 0
    timers.set(() => {
      throw new Error('boom')
    }, 0)
    timers.set(() => Promise.reject(new Error('boom')), 0)
    timers.set(() => ran++, 0)
    await timers.runDue()
    expect(ran).toBe(1)
  })
})

describe('the sync on due timers (as the Worker drives it)', () => {
  it('polls again only when the refresh interval has passed, and backs off after a failure', async () => {
    let now = 0
    const timers = createDueTimers(() => now)
    const upstream = fakeUpstream([
      ok({ version: 2, features: [] }, '"a"'),
      new Error('down'),
      ok({ version: 2, features: [{ name: 'x', enabled: true, strategies: [] }] }, '"b"'),
    ])
    const flags = createScopeFlags({
      newEngine: () => createEngine(),
      logger,
      responseCaches: undefined,
      storage: undefined,
      storageKey: 'k',
    })
    const poller = createPoller({ upstream, flags, logger, refreshInterval: 5_000, timers })
    await poller.start()
    expect(upstream.fetches).toBe(1)
    for (now = 1_000; now < 5_000; now += 1_000) await timers.runDue()
    expect(upstream.fetches).toBe(1)
    now = 5_000
    await timers.runDue()
    expect(upstream.fetches).toBe(2) // failed: the next attempt waits the backoff (2 x 5 s)
    now = 14_000
    await timers.runDue()
    expect(upstream.fetches).toBe(2)
    now = 15_000
    await timers.runDue()
    expect(upstream.fetches).toBe(3)
    expect(flags.current?.engine.size).toBe(1)
    poller.stop()
    expect(timers.pending).toBe(0)
  })

  it('sends usage counts when the metrics interval has passed, and nothing is lost between sends', async () => {
    let now = 0
    const timers = createDueTimers(() => now)
    const upstream = fakeUpstream([ok({ version: 2, features: [] })])
    const aggregator = createUsageAggregator({ countedVariants: () => new Set() })
    const reporter = createUsageReporter({ upstream, aggregator, logger, interval: 30_000, jitter: 0, timers })
    reporter.start()
    aggregator.count('a', true)
    now = 29_999
    await timers.runDue()
    expect(upstream.metrics).toHaveLength(0)
    now = 30_000
    await timers.runDue()
    expect(upstream.metrics).toHaveLength(1)
    aggregator.count('a', false)
    now = 60_000
    await timers.runDue()
    expect(upstream.metrics).toHaveLength(2)
    const sent = upstream.metrics as Array<{ toggles: Record<string, { yes: number; no: number }> }>
    expect(sent.map((bucket) => bucket.toggles.a)).toEqual([
      expect.objectContaining({ yes: 1, no: 0 }),
      expect.objectContaining({ yes: 0, no: 1 }),
    ])
    reporter.stop()
  })
})
