// Staying in step with the upstream, and staying up when it misbehaves: readiness, ETag
// polling, filters and identifying headers, backoff, 401/403, bootstrap and backup.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createFileStorage } from '../src/storage/index.js'
import { CLIENT_KEY, startTestProxy, type TestProxy, useServers } from './helpers/proxy.js'

const ON = (name: string) => ({ name, enabled: true, strategies: [{ name: 'default' }] })
const payload = (...names: string[]) => ({ version: 2, features: names.map(ON), segments: [] })
const auth = { authorization: CLIENT_KEY }
const names = async (proxy: TestProxy) =>
  (
    (await (await fetch(proxy.at('/proxy'), { headers: auth })).json()) as { toggles: Array<{ name: string }> }
  ).toggles.map((t) => t.name)
const gaps = (times: number[]) => times.slice(1).map((t, i) => t - times[i]!)

const servers = useServers()
const upstreamWith = (initial: unknown) => servers.upstream(initial)
const proxyFor = servers.proxy

describe('readiness', () => {
  it('answers 503 on gated routes until the first payload, and accepts metrics meanwhile', async () => {
    const upstream = await upstreamWith(payload('a'))
    upstream.fail({ status: 503 })
    const proxy = await proxyFor(upstream, { waitReady: false, refreshInterval: 50 })
    await upstream.waitFor((r) => r.length > 0)
    for (const path of [
      '/proxy',
      '/proxy/all',
      '/proxy/health',
      '/proxy/client/features',
      '/proxy/internal-backstage/prometheus',
    ]) {
      const res = await fetch(proxy.at(path), { headers: auth })
      expect(res.status, path).toBe(503)
      expect(await res.text()).toBe(
        'The Unleash Proxy has not connected to the Unleash API and is not ready to accept requests yet.',
      )
    }
    const metrics = {
      appName: 'web',
      instanceId: 'i',
      bucket: { start: new Date().toISOString(), stop: new Date().toISOString(), toggles: { a: { yes: 1, no: 0 } } },
    }
    expect(
      (
        await fetch(proxy.at('/proxy/client/metrics'), {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify(metrics),
        })
      ).status,
    ).toBe(200)
    upstream.fail(undefined)
    await expect.poll(() => proxy.proxy.ready, { timeout: 5000 }).toBe(true)
    expect(await names(proxy)).toEqual(['a'])
    expect(proxy.logs.some((line) => /Ready: 1 flags loaded from the upstream/.test(line))).toBe(true)
  })
})

describe('polling', () => {
  it('sends If-None-Match, recompiles nothing on 304, and serves an upstream change on the next poll', async () => {
    const upstream = await upstreamWith(payload('a'))
    const proxy = await proxyFor(upstream, { refreshInterval: 50 })
    await upstream.waitFor((r) => r.filter((q) => q.path === '/client/features').length >= 3)
    const polls = upstream.requestsTo('/client/features')
    expect(polls[0]!.headers['if-none-match']).toBeUndefined()
    expect(polls[1]!.headers['if-none-match']).toMatch(/^"[0-9a-f]+"$/)
    const flagSet = proxy.flags.current
    await upstream.waitFor((r) => r.filter((q) => q.path === '/client/features').length >= 5)
    expect(proxy.flags.current).toBe(flagSet)
    expect(await names(proxy)).toEqual(['a'])
    upstream.setFeatures(payload('a', 'b'))
    await expect.poll(() => names(proxy), { timeout: 5000 }).toEqual(['a', 'b'])
  })

  it('sends the filters in order and the identifying headers, with the token only in Authorization', async () => {
    const upstream = await upstreamWith(payload('a'))
    const proxy = await proxyFor(upstream, {
      projectName: 'web',
      namePrefix: 'ui.',
      tags: [
        { name: 'simple', value: 'proxy' },
        { name: 'demo', value: 'test' },
      ],
      serviceAppName: 'my-proxy',
      serviceInstanceId: 'instance-7',
    })
    const poll = upstream.requestsTo('/client/features')[0]!
    expect([...poll.query]).toEqual([
      ['project', 'web'],
      ['namePrefix', 'ui.'],
      ['tag', 'simple:proxy'],
      ['tag', 'demo:test'],
    ])
    expect(poll.headers).toMatchObject({
      authorization: 'upstream-token-secret',
      'unleash-appname': 'my-proxy',
      'user-agent': 'my-proxy',
      'unleash-instanceid': 'instance-7',
      'unleash-sdk': expect.stringMatching(/^vexil-proxy:\d+\.\d+\.\d+$/),
      'unleash-connection-id': expect.stringMatching(/^[0-9a-f-]{36}$/),
      'unleash-interval': '60000',
    })
    expect(proxy.logs.join('\n')).not.toContain('upstream-token-secret')
  })
})

describe('when the upstream misbehaves', () => {
  it('backs off on 5xx (each wait longer than the last) and recovers', async () => {
    const upstream = await upstreamWith(payload('a'))
    const proxy = await proxyFor(upstream, { refreshInterval: 40 })
    upstream.fail({ status: 500 })
    await upstream.waitFor((r) => r.filter((q) => q.path === '/client/features').length >= 5, 15_000)
    const times = upstream
      .requestsTo('/client/features')
      .slice(1, 5)
      .map((r) => r.at)
    const waits = gaps(times)
    // 40 ms × (1 + failures): 80, 120, 160 ms; a loaded machine only adds delay.
    expect(waits[0]!).toBeGreaterThanOrEqual(75)
    expect(waits[waits.length - 1]!).toBeGreaterThan(waits[0]! + 40)
    expect(await names(proxy)).toEqual(['a']) // still serving the last good flags
    upstream.fail(undefined)
    upstream.setFeatures(payload('a', 'b'))
    await expect.poll(() => names(proxy), { timeout: 10_000 }).toEqual(['a', 'b'])
  })

  it('honours Retry-After on 429', async () => {
    const upstream = await upstreamWith(payload('a'))
    await proxyFor(upstream, { refreshInterval: 30 })
    upstream.fail({ status: 429, headers: { 'retry-after': '1' } })
    const before = upstream.requestsTo('/client/features').length
    await upstream.waitFor((r) => r.filter((q) => q.path === '/client/features').length >= before + 2, 10_000)
    const [first, second] = upstream.requestsTo('/client/features').slice(before, before + 2)
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(950)
  })

  it('backs off on network errors', async () => {
    const upstream = await upstreamWith(payload('a'))
    const proxy = await proxyFor(upstream, { refreshInterval: 30 })
    upstream.drop(true)
    await upstream.waitFor((r) => r.filter((q) => q.path === '/client/features').length >= 4, 10_000)
    expect(proxy.logs.some((line) => /Fetching flags from the upstream failed/.test(line))).toBe(true)
    expect(await names(proxy)).toEqual(['a'])
  })

  it('on 401 keeps serving the last good flags, logs an error, and retries at the longest backoff', async () => {
    const upstream = await upstreamWith(payload('a'))
    const proxy = await proxyFor(upstream, { refreshInterval: 30 })
    upstream.fail({ status: 401 })
    await upstream.waitFor((r) => r.filter((q) => q.path === '/client/features').length >= 3, 5000)
    const [, second, third] = upstream.requestsTo('/client/features').slice(-3)
    expect(third!.at - second!.at).toBeGreaterThanOrEqual(30 * 11 - 10)
    expect(await names(proxy)).toEqual(['a'])
    expect((await fetch(proxy.at('/proxy/health'))).status).toBe(200)
    expect(proxy.logs.some((line) => line.startsWith('ERROR:') && line.includes('401'))).toBe(true)
    upstream.fail(undefined)
    upstream.setFeatures(payload('a', 'c'))
    await expect.poll(() => names(proxy), { timeout: 5000 }).toEqual(['a', 'c'])
  })
})

describe('an upstream that refuses the stream', () => {
  it("403 on /client/streaming (Edge's open-source build): polls for good, never asks for the stream again, and serves changes", async () => {
    const upstream = await upstreamWith(payload('a'))
    upstream.fail({ status: 403 }, '/client/streaming')
    const proxy = await proxyFor(upstream, { refreshInterval: 30 })
    expect(proxy.logs.join('\n')).toContain('The upstream offers no stream (403); polling every 30 ms')
    upstream.setFeatures(payload('a', 'b'))
    await expect.poll(() => names(proxy), { timeout: 5000 }).toEqual(['a', 'b'])
    expect(upstream.requestsTo('/client/streaming')).toHaveLength(1)
    expect(proxy.logs.some((line) => line.startsWith('ERROR:'))).toBe(false)
  })
})

describe('bootstrap and backup', () => {
  it('becomes ready from the bootstrap URL (with its Authorization) while the upstream is down', async () => {
    const upstream = await upstreamWith(payload('live'))
    upstream.fail({ status: 503 })
    const bootstrapServer = await upstreamWith(payload('boot'))
    const proxy = await proxyFor(upstream, {
      refreshInterval: 100,
      expBootstrap: {
        url: `${bootstrapServer.url}/client/features`,
        urlHeaders: { Authorization: 'bootstrap-secret' },
      },
    })
    await expect.poll(() => proxy.proxy.ready, { timeout: 5000 }).toBe(true)
    expect(await names(proxy)).toEqual(['boot'])
    const request = bootstrapServer.requestsTo('/client/features')[0]!
    expect(request.headers.authorization).toBe('bootstrap-secret')
    expect(proxy.logs.some((line) => /loaded from the bootstrap/.test(line))).toBe(true)
    upstream.fail(undefined)
    await expect.poll(() => names(proxy), { timeout: 10_000 }).toEqual(['live'])
  })

  it('a restart with the upstream down serves the backup the previous run stored (file storage)', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'vexil-backup-'))
    servers.defer(() => rmSync(directory, { recursive: true, force: true }))
    const upstream = await upstreamWith(payload('a', 'b'))
    const first = await startTestProxy(upstream.url, { storage: createFileStorage({ directory }) })
    await expect
      .poll(async () => (await createFileStorage({ directory }).get('service-proxy'))?.features.length, {
        timeout: 5000,
      })
      .toBe(2)
    await first.close()

    upstream.fail({ status: 500 })
    const second = await proxyFor(upstream, {
      storage: createFileStorage({ directory }),
      waitReady: false,
      refreshInterval: 50,
    })
    await expect.poll(() => second.proxy.ready, { timeout: 5000 }).toBe(true)
    expect(await names(second)).toEqual(['a', 'b'])
    expect(second.logs.some((line) => /loaded from the backup/.test(line))).toBe(true)
  })
})

describe('failures inside a request', () => {
  it('a throwing custom strategy gives that request 500 JSON, and the proxy keeps serving', async () => {
    const upstream = await upstreamWith({
      version: 2,
      features: [{ name: 'boom', enabled: true, strategies: [{ name: 'exploding' }] }, ON('fine')],
    })
    const proxy = await proxyFor(upstream, {
      customStrategies: [
        {
          name: 'exploding',
          isEnabled: () => {
            throw new Error('strategy exploded')
          },
        },
      ],
    })
    const res = await fetch(proxy.at('/proxy'), { headers: auth })
    expect(res.status).toBe(500)
    expect(((await res.json()) as { error: string }).error).toMatch(
      /^Whoops! We dropped the ball on this one \(an unexpected error occurred\): .*strategy exploded/,
    )
    const lookup = await fetch(proxy.at('/proxy'), {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ toggles: ['fine'] }),
    })
    expect(lookup.status).toBe(200)
    expect((await fetch(proxy.at('/proxy/health'))).status).toBe(200)
  })

  it('a throwing enricher gives 500 JSON with its message', async () => {
    const upstream = await upstreamWith(payload('a'))
    const proxy = await proxyFor(upstream, {
      expCustomEnrichers: [
        () => {
          throw new Error('enricher failed')
        },
      ],
    })
    const res = await fetch(proxy.at('/proxy'), { headers: auth })
    expect(res.status).toBe(500)
    expect(((await res.json()) as { error: string }).error).toContain('enricher failed')
  })
})
