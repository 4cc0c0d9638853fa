// The cluster's rules that need no processes (WORKERS=N): when it is ready, how soon a dead
// worker is replaced, and how a worker's token registry asks the primary. The processes
// themselves are tested in cluster-workers.test.ts.
import { describe, expect, it } from 'vitest'
import { clusterReadiness } from '../src/runtime/cluster/cluster-readiness.js'
import { createRestartPolicy } from '../src/runtime/cluster/restart-policy.js'
import { createWorkerTokenRegistry } from '../src/runtime/cluster/worker-token-registry.js'
import type { KnownToken } from '../src/tokens/api-token.js'

const ready = { static: true, all: true, scopes: 1 }
const primary = { static: true, all: true, scopes: 1 }

describe('cluster readiness', () => {
  it('is ready only when every one of the N workers reports flags', () => {
    expect(clusterReadiness(2, [ready, ready], primary)).toEqual({ static: true, all: true })
    expect(clusterReadiness(2, [ready, undefined], primary)).toEqual({ static: false, all: false })
    expect(clusterReadiness(2, [ready, { static: false, all: false, scopes: 1 }], primary)).toEqual({
      static: false,
      all: false,
    })
  })

  it('a slot whose worker died is not ready until its replacement reports', () => {
    expect(clusterReadiness(2, [ready], primary)).toEqual({ static: false, all: false })
  })

  it('a worker that has not yet heard of a scope the primary syncs is not ready for every scope', () => {
    expect(clusterReadiness(2, [ready, { ...ready, scopes: 0 }], { ...primary, scopes: 1 })).toEqual({
      static: true,
      all: false,
    })
  })

  it('a token scope without flags leaves /proxy/health ready, as in one process', () => {
    expect(clusterReadiness(2, [{ static: true, all: false, scopes: 1 }, ready], { ...primary, all: false })).toEqual({
      static: true,
      all: false,
    })
  })
})

describe('restart policy', () => {
  it('replaces the first deaths at once, then waits longer with every death in the window, up to a ceiling', () => {
    const now = 0
    const policy = createRestartPolicy({
      windowMs: 60_000,
      immediate: 3,
      baseDelayMs: 1_000,
      maxDelayMs: 8_000,
      now: () => now,
    })
    const delays = Array.from({ length: 8 }, () => policy.nextDelay())
    expect(delays).toEqual([0, 0, 0, 1_000, 2_000, 4_000, 8_000, 8_000])
  })

  it('forgets deaths older than the window', () => {
    let now = 0
    const policy = createRestartPolicy({ windowMs: 60_000, immediate: 1, now: () => now })
    expect(policy.nextDelay()).toBe(0)
    expect(policy.nextDelay()).toBe(1_000)
    now = 61_000
    expect(policy.nextDelay()).toBe(0)
  })
})

describe("a worker's token registry", () => {
  const token: KnownToken = {
    secret: '*:development.abc',
    type: 'frontend',
    environment: 'development',
    projects: ['*'],
  }

  it('asks the primary once for a secret however many requests wait for it, and then knows it', async () => {
    const asked: Array<[number, string]> = []
    const registry = createWorkerTokenRegistry({
      mode: 'dynamic',
      configured: [],
      ask: (id, secret) => asked.push([id, secret]),
    })
    const waiting = [registry.resolve(token.secret), registry.resolve(token.secret)]
    expect(asked).toEqual([[1, token.secret]])
    // The primary sends the learned token, then its answer.
    registry.apply(token.secret, token, 0)
    registry.settle(1, { ...token }, 0)
    expect(await Promise.all(waiting)).toEqual([token, token])
    expect(registry.known(token.secret)).toBe(token)
    expect(await registry.resolve(token.secret)).toBe(token)
    expect(asked).toHaveLength(1)
  })

  it('a caller flooding the secrets waiting for the primary never starves another caller', async () => {
    const asked: Array<[number, string, string]> = []
    const registry = createWorkerTokenRegistry({
      mode: 'dynamic',
      configured: [],
      maxWaiting: 1_000,
      ask: (id, secret, caller) => asked.push([id, secret, caller]),
    })
    const flood = Array.from({ length: 2_000 }, (_, i) => registry.resolve(`*:development.random-${i}`, '203.0.113.9'))
    const real = registry.resolve(token.secret, '198.51.100.1')
    // The primary hears who asks, for its own fair queue.
    expect(asked.at(-1)).toEqual([expect.any(Number), token.secret, '198.51.100.1'])
    expect(asked).toHaveLength(1_001)
    registry.apply(token.secret, token, 0)
    registry.settle(asked.at(-1)![0], token, 0)
    expect(await real).toBe(token)
    const answers = await Promise.all(flood.slice(999))
    expect(answers.every((answer) => answer === 'unavailable')).toBe(true)
    registry.stop()
  })

  it('follows revocations, refuses unconfigured secrets in strict mode without asking, and turns waiters away on stop', async () => {
    const asked: string[] = []
    const strict = createWorkerTokenRegistry({
      mode: 'strict',
      configured: [token.secret],
      ask: (_id, secret) => asked.push(secret),
    })
    expect(await strict.resolve('*:development.other')).toBe('invalid')
    expect(asked).toEqual([])
    strict.apply(token.secret, token, 0)
    strict.apply(token.secret, undefined, 3)
    expect(strict.known(token.secret)).toBeUndefined()
    expect(strict.invalidCount).toBe(3)
    const waiting = strict.resolve(token.secret)
    strict.stop()
    expect(await waiting).toBe('unavailable')
  })
})
