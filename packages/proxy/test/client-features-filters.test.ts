import { get } from 'node:http'
import { describe, expect, it } from 'vitest'
import { makeFeatures } from '@vexil/test-fixtures/workload.ts'
import { useServers } from './helpers/proxy.js'

// Security review 2, finding 13: a client token choosing new `project`/`namePrefix` values must
// not make the proxy serialize (and compress) the whole /api/client/features body again per
// request. A filter is answered from the body of the features it selects: `?project=web&project=zzz1`
// and `...zzz2` share one body. A real listening proxy serving 10k flags.

const servers = useServers()
const CLIENT = '*:development.filters-client-1'

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

describe('/api/client/features filters', () => {
  it('distinct filter values selecting the same features share one body (10k flags)', async () => {
    const upstream = await servers.upstream({ version: 2, features: [] })
    upstream.setFeaturesFor(CLIENT, makeFeatures(10_000))
    upstream.setValidTokens([{ token: CLIENT, type: 'client', environment: 'development', projects: ['*'] }])
    const proxy = await servers.proxy(upstream, { tokens: [CLIENT], refreshInterval: 60_000 })
    // node:http, not fetch: the compressed bytes as sent, without the client's decompression in the time.
    const timed = (query: string) =>
      new Promise<{ ms: number; etag: string | undefined }>((resolve, reject) => {
        const started = performance.now()
        get(
          proxy.at(`/api/client/features${query}`),
          { headers: { authorization: CLIENT, 'accept-encoding': 'br' } },
          (res) => {
            res.resume()
            res.on('end', () => resolve({ ms: performance.now() - started, etag: res.headers.etag }))
          },
        ).on('error', reject)
      })
    const first = await timed('?project=web&project=checkout&project=growth')
    const repeated: number[] = []
    for (let i = 0; i < 5; i++) repeated.push((await timed('?project=web&project=checkout&project=growth')).ms)
    const distinct: number[] = []
    for (let i = 0; i < 20; i++) {
      const answer = await timed(`?project=web&project=checkout&project=growth&project=zzz${i}`)
      expect(answer.etag).toBe(first.etag)
      distinct.push(answer.ms)
    }
    console.info(
      `10k flags, br: first ${Math.round(first.ms)} ms; same filter median ${median(repeated).toFixed(1)} ms; distinct filter values median ${median(distinct).toFixed(1)} ms`,
    )
    // Made once: a new spelling costs a scan of the flags, not a serialization and compression.
    expect(median(distinct)).toBeLessThan(first.ms / 4)
  }, 60_000)
})
