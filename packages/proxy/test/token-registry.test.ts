import { describe, expect, it } from 'vitest'
import { covers, normalizeProjects, readTokenSecret } from '../src/tokens/api-token.js'
import { createTokenRegistry, type TokenRegistryOptions } from '../src/tokens/token-registry.js'
import type { KnownToken } from '../src/tokens/api-token.js'
import { createLogger } from '../src/logger.js'

// Which API tokens the proxy accepts on the Unleash API routes: learned from the upstream's
// POST /edge/validate, each unknown secret at most once per TTL, with the upstream's load bounded
// whatever callers send; strict mode accepts the configured tokens only.

const FRONTEND: KnownToken = {
  secret: '*:development.front',
  type: 'frontend',
  environment: 'development',
  projects: ['*'],
}
const CLIENT: KnownToken = {
  secret: 'default:production.client',
  type: 'client',
  environment: 'production',
  projects: ['default'],
}

function setup(overrides: Partial<TokenRegistryOptions> = {}, valid: KnownToken[] = [FRONTEND, CLIENT]) {
  const calls: string[][] = []
  const logs: string[] = []
  let upstreamValid = valid
  let failing = false
  const registry = createTokenRegistry({
    mode: 'dynamic',
    logger: createLogger({ level: 'debug', json: false, write: (line) => logs.push(line) }),
    revalidateMs: 0,
    minValidationGapMs: 0,
    validate: async (secrets) => {
      calls.push([...secrets])
      await new Promise((resolve) => setTimeout(resolve, 5))
      if (failing) throw new Error('connection refused')
      return upstreamValid.filter((token) => secrets.includes(token.secret))
    },
    ...overrides,
  })
  return {
    registry,
    calls,
    logs,
    setValid: (tokens: KnownToken[]) => (upstreamValid = tokens),
    setFailing: (value: boolean) => (failing = value),
  }
}

describe('reading a token from a header', () => {
  it.each([
    ['*:development.abc', '*:development.abc'],
    ['  default:production.v2_x_y  ', 'default:production.v2_x_y'],
    ['Bearer *:development.abc', '*:development.abc'],
    ['bearer   []:development.abc', '[]:development.abc'],
  ])('%j is the secret %j', (header, secret) => {
    expect(readTokenSecret(header)).toBe(secret)
  })

  it.each([
    undefined,
    '',
    'garbage',
    'no-colon.dot',
    'dot.before:colon',
    ':development.abc',
    'a:.b',
    `*:development.${'x'.repeat(1_100)}`,
  ])('%j is no token (never sent upstream)', (header) => {
    expect(readTokenSecret(header)).toBeUndefined()
  })
})

describe('scopes', () => {
  it('covers: same environment and a superset of projects', () => {
    expect(covers({ environment: 'e', projects: ['*'] }, { environment: 'e', projects: ['a'] })).toBe(true)
    expect(covers({ environment: 'e', projects: ['a', 'b'] }, { environment: 'e', projects: ['b'] })).toBe(true)
    expect(covers({ environment: 'e', projects: ['a'] }, { environment: 'e', projects: ['*'] })).toBe(false)
    expect(covers({ environment: 'e', projects: ['*'] }, { environment: 'f', projects: ['a'] })).toBe(false)
  })

  it('normalizes project lists', () => {
    expect(normalizeProjects(['b', 'a', 'b'])).toEqual(['a', 'b'])
    expect(normalizeProjects(['a', '*'])).toEqual(['*'])
  })
})

describe('dynamic mode', () => {
  it('validates an unknown token once, then answers from memory (valid and invalid alike)', async () => {
    const { registry, calls } = setup()
    expect(await registry.resolve(FRONTEND.secret)).toMatchObject({
      type: 'frontend',
      environment: 'development',
      projects: ['*'],
    })
    expect(await registry.resolve(FRONTEND.secret)).toMatchObject({ type: 'frontend' })
    expect(await registry.resolve('*:development.nope')).toBe('invalid')
    expect(await registry.resolve('*:development.nope')).toBe('invalid')
    expect(calls).toEqual([[FRONTEND.secret], ['*:development.nope']])
  })

  it('asks once for concurrent requests with the same new token', async () => {
    const { registry, calls } = setup()
    const answers = await Promise.all(Array.from({ length: 50 }, () => registry.resolve(CLIENT.secret)))
    expect(answers.every((answer) => typeof answer === 'object' && answer.type === 'client')).toBe(true)
    expect(calls.flat()).toEqual([CLIENT.secret])
  })

  it('a flood of random tokens: at most one validation in flight, batches of at most batchSize, the rest turned away', async () => {
    const { registry, calls } = setup({ batchSize: 100, maxWaiting: 1_000 })
    const secrets = Array.from({ length: 5_000 }, (_, i) => `*:development.random-${i}`)
    const answers = await Promise.all(secrets.map((secret) => registry.resolve(secret)))
    expect(answers.filter((a) => a === 'invalid').length).toBe(1_000)
    expect(answers.filter((a) => a === 'unavailable').length).toBe(4_000)
    expect(calls.length).toBe(10)
    expect(Math.max(...calls.map((batch) => batch.length))).toBe(100)
    expect(registry.invalidCount).toBe(1_000)
  })

  it("a caller flooding the waiting room never starves another: the newcomer takes the flooder's newest place and goes out in the next batch", async () => {
    const { registry, calls } = setup({ batchSize: 100, maxWaiting: 1_000 })
    const flood = Array.from({ length: 3_000 }, (_, i) => registry.resolve(`*:development.random-${i}`, '203.0.113.9'))
    const real = registry.resolve(FRONTEND.secret, '198.51.100.1')
    const answers = await Promise.all(flood)
    expect(await real).toMatchObject({ type: 'frontend' })
    // Batches take one secret from each caller in turn: the first holds it.
    expect(calls[0]).toContain(FRONTEND.secret)
    expect(answers.filter((a) => a === 'invalid').length).toBe(999)
    expect(answers.filter((a) => a === 'unavailable').length).toBe(2_001)
  })

  it("turns away the busiest caller's newest secret, never a caller's own only one, when the waiting room is full", async () => {
    const { registry } = setup({ batchSize: 1, maxWaiting: 3 })
    const a = [
      registry.resolve('*:development.a1', 'a'),
      registry.resolve('*:development.a2', 'a'),
      registry.resolve('*:development.a3', 'a'),
    ]
    const b = registry.resolve('*:development.b1', 'b')
    const c = registry.resolve('*:development.c1', 'c')
    // Now a: 1 waiting, b: 1, c: 1 (a2 and a3 turned away); a fourth caller finds every share equal but its own empty.
    expect(await a[2]).toBe('unavailable')
    expect(await a[1]).toBe('unavailable')
    const d = registry.resolve('*:development.d1', 'd')
    expect(await Promise.all([a[0], b, c, d])).toEqual(expect.arrayContaining(['invalid', 'invalid', 'invalid']))
  })

  it('remembers at most maxInvalid invalid secrets, the oldest forgotten first', async () => {
    const { registry } = setup({ maxInvalid: 3 })
    for (let i = 0; i < 5; i++) await registry.resolve(`*:development.bad-${i}`)
    expect(registry.invalidCount).toBe(3)
  })

  it('a flood of the longest made-up secrets keeps at most maxInvalidChars of them in memory', async () => {
    const { registry } = setup({ batchSize: 100, maxWaiting: 1_000 })
    const long = (i: number) => `*:development.${String(i).padStart(1_024 - 14, 'x')}`
    for (let round = 0; round < 3; round++)
      await Promise.all(Array.from({ length: 1_000 }, (_, i) => registry.resolve(long(round * 1_000 + i))))
    expect(registry.invalidCount).toBe(1_024)
  })

  it('asks about an invalid secret again after its TTL (a token created upstream later starts working)', async () => {
    let now = 1_000
    const { registry, calls, setValid } = setup({ invalidTtlMs: 60_000, now: () => now })
    const later: KnownToken = {
      secret: '*:development.later',
      type: 'frontend',
      environment: 'development',
      projects: ['*'],
    }
    expect(await registry.resolve(later.secret)).toBe('invalid')
    setValid([later])
    now += 30_000
    expect(await registry.resolve(later.secret)).toBe('invalid')
    now += 31_000
    expect(await registry.resolve(later.secret)).toMatchObject({ type: 'frontend' })
    expect(calls.length).toBe(2)
  })

  it('an upstream that cannot answer decides nothing: unavailable now, asked again next time', async () => {
    const { registry, setFailing, calls } = setup()
    setFailing(true)
    expect(await registry.resolve(FRONTEND.secret)).toBe('unavailable')
    setFailing(false)
    expect(await registry.resolve(FRONTEND.secret)).toMatchObject({ type: 'frontend' })
    expect(calls.length).toBe(2)
  })

  it('knows an admin token as such (every route refuses it as the wrong type); other types are dropped', async () => {
    const admin: KnownToken = { secret: '*:*.admin', type: 'admin', environment: '*', projects: ['*'] }
    const other = { secret: '*:*.other', type: 'personal', environment: '*', projects: ['*'] } as unknown as KnownToken
    const { registry } = setup({}, [admin, other])
    expect(await registry.resolve(admin.secret)).toMatchObject({ type: 'admin' })
    expect(await registry.resolve(other.secret)).toBe('invalid')
  })

  it('revalidation: a token revoked upstream is refused within one interval, and the change is reported', async () => {
    const changes: Array<[string, string | undefined]> = []
    const { registry, setValid } = setup({
      revalidateMs: 30,
      onChange: (secret, token) => changes.push([secret, token?.type]),
    })
    await registry.start()
    expect(await registry.resolve(CLIENT.secret)).toMatchObject({ type: 'client' })
    setValid([FRONTEND])
    await new Promise((resolve) => setTimeout(resolve, 150))
    expect(registry.known(CLIENT.secret)).toBeUndefined()
    expect(await registry.resolve(CLIENT.secret)).toBe('invalid')
    expect(changes).toEqual([
      [CLIENT.secret, 'client'],
      [CLIENT.secret, undefined],
    ])
    registry.stop()
  })

  it('revalidation: a token /edge/validate still lists but the upstream refuses on its own API (Unleash 8.2) is refused within one interval, and not learned again', async () => {
    const refused = new Set<string>()
    const checked: string[] = []
    const { registry } = setup({
      revalidateMs: 30,
      invalidTtlMs: 0,
      check: async (token) => {
        checked.push(token.secret)
        return !refused.has(token.secret)
      },
    })
    await registry.start()
    expect(await registry.resolve(FRONTEND.secret)).toMatchObject({ type: 'frontend' })
    expect(checked).toContain(FRONTEND.secret)
    refused.add(FRONTEND.secret)
    await new Promise((resolve) => setTimeout(resolve, 150))
    expect(registry.known(FRONTEND.secret)).toBeUndefined()
    expect(await registry.resolve(FRONTEND.secret)).toBe('invalid')
    registry.stop()
  })
})

describe('strict mode', () => {
  it('accepts the configured tokens only, validated at start; others never reach the upstream', async () => {
    const { registry, calls } = setup({ mode: 'strict', configured: [CLIENT.secret, '*:development.not-valid'] })
    await registry.start()
    expect(registry.known(CLIENT.secret)).toMatchObject({ type: 'client' })
    expect(await registry.resolve(FRONTEND.secret)).toBe('invalid')
    expect(await registry.resolve('*:development.not-valid')).toBe('invalid')
    expect(calls).toEqual([[CLIENT.secret, '*:development.not-valid']])
    registry.stop()
  })
})
