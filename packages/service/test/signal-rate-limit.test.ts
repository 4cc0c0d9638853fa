// The signal rate limit across service instances (issue 20): SIGNAL_ENDPOINT_RATE_LIMIT_PER_SECOND
// is kept in the database, so several instances on one database together admit the limit per
// endpoint and window, not the limit each. Run on both drivers: two instances (two connection
// pools) on one real PostgreSQL server, and two apps on one PGlite.
import { afterEach, describe, expect, it } from 'vitest'
import type { Database } from '../src/db/database.js'
import { databaseDrivers } from './helpers/drivers.js'
import { startTestService, type TestService } from './helpers/service.js'
import { createSignalEndpoint, sendSignal } from './helpers/signals.js'

const LIMIT = 5
const SENT = 24

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const drivers = await databaseDrivers('signal-rate-limit')

describe.each(drivers)('two service instances on one $name database', ({ open, openAgain }) => {
  const run = open ? it : it.skip
  let now = new Date('2026-05-01T12:00:00.000Z')

  async function twoInstances(): Promise<[TestService, TestService]> {
    const first = await (open as () => Promise<Database>)()
    const second = openAgain ? await openAgain() : first
    cleanups.push(
      () => first.close(),
      async () => (second === first ? undefined : second.close()),
    )
    const options = {
      clock: () => now,
      actionRunner: false as const,
      env: { SIGNAL_ENDPOINT_RATE_LIMIT_PER_SECOND: String(LIMIT) },
    }
    const a = await startTestService({ ...options, db: first })
    cleanups.push(() => a.close())
    const b = await startTestService({ ...options, db: second })
    cleanups.push(() => b.close())
    return [a, b]
  }

  run('signals for one endpoint sent to both at once: together they admit exactly the limit per window', async () => {
    const [a, b] = await twoInstances()
    const endpoint = await createSignalEndpoint(a, 'shared', ['one'])
    const token = endpoint.tokens[0] as string
    const burst = () =>
      Promise.all(Array.from({ length: SENT }, (_, i) => sendSignal(i % 2 === 0 ? a : b, 'shared', token, { i })))

    for (let window = 0; window < 3; window++) {
      const answers = await burst()
      const admitted = answers.filter((answer) => answer.status === 200)
      const refused = answers.filter((answer) => answer.status === 429)
      expect(admitted, `window ${window}`).toHaveLength(LIMIT)
      expect(refused).toHaveLength(SENT - LIMIT)
      // Each admitted request was told a different remaining count: one counter, no lost update.
      expect(admitted.map((answer) => Number(answer.headers.get('ratelimit-remaining'))).sort()).toEqual([
        0, 1, 2, 3, 4,
      ])
      for (const answer of refused) {
        expect(answer.headers.get('retry-after')).toBe('1')
        expect(answer.headers.get('ratelimit-remaining')).toBe('0')
        expect(answer.headers.get('ratelimit-policy')).toBe(`${LIMIT};w=1`)
        expect(answer.body).toMatchObject({ name: 'RateLimitError' })
      }
      now = new Date(now.getTime() + 1000)
    }
    const [stored] = await a.db.query<{ n: number }>('SELECT count(*)::int AS n FROM signals WHERE source_id = $1', [
      endpoint.id,
    ])
    expect(stored?.n).toBe(3 * LIMIT)
  })

  run('a window one instance filled refuses on the other until it ends; endpoints do not share one', async () => {
    const [a, b] = await twoInstances()
    const [busy, quiet] = [await createSignalEndpoint(a, 'busy'), await createSignalEndpoint(a, 'quiet')]
    for (let i = 0; i < LIMIT; i++)
      expect((await sendSignal(a, 'busy', busy.tokens[0] as string, { i })).status).toBe(200)
    now = new Date(now.getTime() + 999)
    expect((await sendSignal(b, 'busy', busy.tokens[0] as string, {})).status).toBe(429)
    expect((await sendSignal(b, 'quiet', quiet.tokens[0] as string, {})).status).toBe(200)
    now = new Date(now.getTime() + 1)
    const next = await sendSignal(b, 'busy', busy.tokens[0] as string, {})
    expect(next.status).toBe(200)
    expect(next.headers.get('ratelimit-remaining')).toBe(String(LIMIT - 1))
  })

  run('the window goes with its endpoint', async () => {
    const [a] = await twoInstances()
    const endpoint = await createSignalEndpoint(a, 'gone')
    expect((await sendSignal(a, 'gone', endpoint.tokens[0] as string, {})).status).toBe(200)
    expect((await a.api('DELETE', `/api/admin/signal-endpoints/${endpoint.id}`)).status).toBe(200)
    const [row] = await a.db.query<{ n: number }>('SELECT count(*)::int AS n FROM signal_rate_windows')
    expect(row?.n).toBe(0)
  })
})
