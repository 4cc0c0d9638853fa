// One owner per flag payload (scope/scope-flags.ts): upstream, bootstrap and backup only offer
// payloads; the owner picks by precedence (upstream > bootstrap > backup), logs Ready once with
// the source, and publishes a new frozen flag set per payload, each with its own response cache.
// Through a real listening proxy where the sources can be arranged, directly where they cannot.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createEngine } from '@vexil/engine'
import { describe, expect, it } from 'vitest'
import type { PayloadSource } from '../src/scope/flag-set.js'
import { createResponseCaches } from '../src/cache/response-cache.js'
import { createScopeFlags } from '../src/scope/scope-flags.js'
import { createMemoryStorage } from '../src/storage/index.js'
import { CLIENT_KEY, memoryLogger, type TestProxy, useServers } from './helpers/proxy.js'

const ON = (name: string) => ({ name, enabled: true, strategies: [{ name: 'default' }] })
const payload = (...names: string[]) => ({ version: 2, features: names.map(ON), segments: [] })
const auth = { authorization: CLIENT_KEY }
const names = async (proxy: TestProxy, path = '/proxy') =>
  ((await (await fetch(proxy.at(path), { headers: auth })).json()) as { toggles: Array<{ name: string }> }).toggles.map(
    (t) => t.name,
  )
const readyLines = (proxy: TestProxy) => proxy.logs.filter((line) => line.includes('Ready: '))
const BACKUP_KEY = 'service-proxy' // the app name helpers/proxy.ts leaves at its default

const servers = useServers()

async function storageWithBackup(...flags: string[]) {
  const storage = createMemoryStorage()
  await storage.set(BACKUP_KEY, payload(...flags))
  return storage
}

/** A bootstrap URL that answers `body` after `delayMs`, and says when it has answered. */
async function slowBootstrap(body: unknown, delayMs: number): Promise<{ url: string; answered: Promise<void> }> {
  let answer!: () => void
  const answered = new Promise<void>((resolve) => (answer = resolve))
  const server = createServer((_req, res) => {
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify(body), answer)
    }, delayMs)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  servers.defer(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/features`, answered }
}

describe('which source wins (through the app)', () => {
  it('a bootstrap outranks the backup; the upstream then replaces it; Ready is logged once, naming the bootstrap', async () => {
    const upstream = await servers.upstream(payload('live'))
    upstream.fail({ status: 503 })
    const storage = await storageWithBackup('from-backup')
    const proxy = await servers.proxy(upstream, {
      storage,
      refreshInterval: 50,
      expBootstrap: { data: [ON('from-bootstrap')] },
    })
    expect(proxy.flags.current?.source).toBe('bootstrap')
    // The backup is read beside the first fetch, after the bootstrap data: give it time to be refused.
    await upstream.waitFor((r) => r.length >= 2)
    expect(proxy.flags.current).toMatchObject({ source: 'bootstrap', revision: 1 })
    expect(await names(proxy)).toEqual(['from-bootstrap'])

    upstream.fail(undefined)
    await expect.poll(() => proxy.flags.current?.source, { timeout: 10_000 }).toBe('upstream')
    expect(await names(proxy)).toEqual(['live'])
    expect(readyLines(proxy)).toEqual([
      expect.stringContaining('Ready: 1 flags loaded from the bootstrap while the upstream has not answered yet.'),
    ])
    // Upstream payloads, and only they, become the backup.
    await expect.poll(async () => (await storage.get(BACKUP_KEY))?.features.map((f) => f.name)).toEqual(['live'])
  })

  it('a backup fills the wait, the upstream replaces it; Ready is logged once, naming the backup', async () => {
    const upstream = await servers.upstream(payload('live'))
    upstream.drop(true)
    const proxy = await servers.proxy(upstream, {
      storage: await storageWithBackup('from-backup'),
      refreshInterval: 30,
      waitReady: false,
    })
    await expect.poll(() => proxy.flags.current?.source, { timeout: 5000 }).toBe('backup')
    expect(await names(proxy)).toEqual(['from-backup'])
    upstream.drop(false)
    await expect.poll(() => proxy.flags.current?.source, { timeout: 10_000 }).toBe('upstream')
    expect(await names(proxy)).toEqual(['live'])
    expect(readyLines(proxy)).toEqual([
      expect.stringContaining('Ready: 1 flags loaded from the backup while the upstream has not answered yet.'),
    ])
  })

  it('a bootstrap that arrives after the upstream answered is not used', async () => {
    const upstream = await servers.upstream(payload('live'))
    const bootstrap = await slowBootstrap(payload('late-bootstrap'), 300)
    const proxy = await servers.proxy(upstream, { expBootstrap: { url: bootstrap.url } })
    const first = proxy.flags.current
    expect(first?.source).toBe('upstream')
    await bootstrap.answered
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(proxy.flags.current).toBe(first)
    expect(await names(proxy)).toEqual(['live'])
    expect(readyLines(proxy)).toEqual([
      expect.stringContaining('Ready: 1 flags loaded from the upstream. The proxy now serves traffic.'),
    ])
  })
})

describe('a new payload makes a new flag set (through the app)', () => {
  it('the old set is frozen and unchanged: its engine, server-side body, revision and source', async () => {
    const upstream = await servers.upstream(payload('a'))
    const proxy = await servers.proxy(upstream, { refreshInterval: 30 })
    const old = proxy.flags.current!
    const oldBody = old.serverSide.body
    upstream.setFeatures(payload('a', 'b'))
    await expect.poll(() => proxy.flags.current !== old, { timeout: 5000 }).toBe(true)
    const next = proxy.flags.current!
    expect(next).toMatchObject({ source: 'upstream', revision: old.revision + 1 })
    expect(next.etag).not.toBe(old.etag)
    expect(Object.isFrozen(old)).toBe(true)
    expect(old.engine.evaluateAll({}).map((t) => t.name)).toEqual(['a'])
    expect(old.serverSide.body).toBe(oldBody)
    expect(JSON.parse(next.serverSide.body).features.map((f: { name: string }) => f.name)).toEqual(['a', 'b'])
  })

  it('the response cache never answers from an old payload', async () => {
    const upstream = await servers.upstream(payload('a'))
    const proxy = await servers.proxy(upstream, { refreshInterval: 30 })
    const old = proxy.flags.current!
    const path = '/proxy?userId=cached&sessionId=s'
    // Admitted on the second sight, answered from the cache on the third.
    for (let i = 0; i < 3; i++) expect(await names(proxy, path)).toEqual(['a'])
    expect(old.responseCache?.size).toBe(1)
    upstream.setFeatures(payload('b'))
    await expect.poll(() => proxy.flags.current !== old, { timeout: 5000 }).toBe(true)
    expect(await names(proxy, path)).toEqual(['b'])
    expect(await names(proxy, path)).toEqual(['b'])
    expect(proxy.flags.current!.responseCache).not.toBe(old.responseCache)
    expect(proxy.flags.current!.responseCache?.size).toBe(1)
    // The replaced set's answers were dropped, and it keeps no more.
    expect(old.responseCache?.size).toBe(0)
  })
})

describe('createScopeFlags', () => {
  const create = () => {
    const logs: string[] = []
    const flags = createScopeFlags({
      newEngine: () => createEngine(),
      responseCaches: createResponseCaches({ maxEntries: 10, maxBytes: 1 << 20 }),
      logger: memoryLogger(logs),
      storage: undefined,
      storageKey: 'k',
    })
    return { flags, logs }
  }

  it.each<[PayloadSource, PayloadSource, boolean]>([
    ['backup', 'backup', false],
    ['backup', 'bootstrap', true],
    ['backup', 'upstream', true],
    ['bootstrap', 'backup', false],
    ['bootstrap', 'bootstrap', true],
    ['bootstrap', 'upstream', true],
    ['upstream', 'backup', false],
    ['upstream', 'bootstrap', false],
    ['upstream', 'upstream', true],
  ])('over a set from the %s, a payload from the %s is used: %s', (current, candidate, used) => {
    const { flags, logs } = create()
    const first = flags.offer({ payload: payload('first'), source: current })!
    const offered = flags.offer({ payload: payload('second'), source: candidate })
    expect(offered !== undefined).toBe(used)
    expect(flags.current).toBe(used ? offered : first)
    expect(first.engine.evaluateAll({}).map((t) => t.name)).toEqual(['first'])
    expect(logs.filter((line) => line.includes('Ready: '))).toEqual([
      expect.stringContaining(`loaded from the ${current}`),
    ])
  })

  it('applies a delta to the current set in a new set, leaving the old one as it was', () => {
    const { flags } = create()
    const old = flags.offer({ payload: payload('a'), source: 'upstream', etag: '"1"' })!
    const next = flags.offer({
      payload: { events: [{ type: 'feature-updated', feature: ON('b') }] },
      source: 'upstream',
      etag: '"2"',
    })!
    expect(next.engine.evaluateAll({}).map((t) => t.name)).toEqual(['a', 'b'])
    expect(old.engine.evaluateAll({}).map((t) => t.name)).toEqual(['a'])
    expect([old.etag, next.etag, next.revision]).toEqual(['"1"', '"2"', 2])
  })

  it('logs the engine warnings with the source', () => {
    const { flags, logs } = create()
    flags.offer({ payload: { version: 2, features: [{ enabled: true }] }, source: 'bootstrap' })
    expect(logs.some((line) => line.includes('Flag payload (bootstrap): a feature without a name was skipped'))).toBe(
      true,
    )
  })
})
