import { describe, expect, it } from 'vitest'
import type { RequestRecord } from '@vexil/server-kit'
import { CLIENT_KEY, useServers } from './helpers/proxy.js'
import { until } from './helpers/until.js'

// Metrics, the request log and traces all read one record per request (@vexil/server-kit's request-observer.ts):
// the route as declared, never the path as sent, so a caller cannot grow a label set.

const servers = useServers()
const FEATURES = { version: 2, features: [{ name: 'on', enabled: true, strategies: [{ name: 'default' }] }] }

describe('request observers', () => {
  it('see each request once it closes: the declared route, the status, the duration', async () => {
    const upstream = await servers.upstream(FEATURES)
    const records: RequestRecord[] = []
    const proxy = await servers.proxy(upstream, { requestObservers: [(record) => records.push(record)] })

    await fetch(proxy.at('/proxy?userId=7'), { headers: { authorization: CLIENT_KEY } })
    await fetch(proxy.at('/proxy'), { headers: { authorization: 'wrong' } })
    await fetch(proxy.at('/made/up/path/12345'))
    await fetch(proxy.at('/proxy/client/metrics'), {
      method: 'POST',
      headers: { authorization: CLIENT_KEY, 'content-type': 'application/json' },
      body: '{}',
    })
    await until(() => records.length === 4, 'four records')

    expect(records.map(({ method, route, status, aborted }) => ({ method, route, status, aborted }))).toEqual([
      { method: 'GET', route: '/proxy', status: 200, aborted: false },
      { method: 'GET', route: '/proxy', status: 401, aborted: false },
      { method: 'GET', route: undefined, status: 404, aborted: false },
      { method: 'POST', route: '/proxy/client/metrics', status: 400, aborted: false },
    ])
    for (const record of records) {
      expect(record.durationMs).toBeGreaterThanOrEqual(0)
      expect(record.durationMs).toBeLessThan(10_000)
      expect(Math.abs(record.startedAtEpochMs - Date.now())).toBeLessThan(60_000)
    }
  })

  it('a prefix route is reported by its template, not by the path a caller made up', async () => {
    const upstream = await servers.upstream(FEATURES)
    const routes = new Set<string | undefined>()
    let count = 0
    const proxy = await servers.proxy(upstream, {
      requestObservers: [
        (record) => {
          routes.add(record.route)
          count++
        },
      ],
    })
    for (let n = 0; n < 5; n++) await fetch(proxy.at(`/api/client/features/made-up-${n}`))
    await until(() => count === 5, 'five records')
    expect([...routes]).toEqual(['/api/client/features/:name'])
  })

  it('a throwing observer is logged and the others still run', async () => {
    const upstream = await servers.upstream(FEATURES)
    const seen: number[] = []
    const proxy = await servers.proxy(upstream, {
      requestObservers: [
        () => {
          throw new Error('observer broke')
        },
        (record) => seen.push(record.status),
      ],
    })
    const response = await fetch(proxy.at('/proxy?userId=1'), { headers: { authorization: CLIENT_KEY } })
    expect(response.status).toBe(200)
    await until(() => seen.length === 1, 'the second observer')
    expect(proxy.logs.some((line) => line.includes('A request observer failed'))).toBe(true)
  })
})
