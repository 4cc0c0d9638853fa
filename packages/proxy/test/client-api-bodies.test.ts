import { createEngine } from '@vexil/engine'
import { describe, expect, it } from 'vitest'
import { clientFilter, featuresBody as bodyFor } from '../src/answers/client-features.js'
import { createFlagSet } from '../src/scope/flag-set.js'
import type { KnownToken } from '../src/tokens/api-token.js'

// /api/client/features bodies are kept per flag set and filter (issue 17): a poll that repeats
// costs a lookup, other spellings of the same filter share the body, and what is kept is bounded
// (with 10k flags a body is megabytes).

const token: KnownToken = { secret: '*:development.x', type: 'client', projects: ['*'], environment: 'development' }
const featuresBody = (flags: Parameters<typeof bodyFor>[0], caller: KnownToken, search: string) =>
  bodyFor(flags, clientFilter(caller, search))

function flagSet(count: number, descriptionLength = 10, projectOf: (i: number) => string = (i) => (i % 2 ? 'a' : 'b')) {
  const features = Array.from({ length: count }, (_, i) => ({
    name: `f-${i}`,
    project: projectOf(i),
    description: 'd'.repeat(descriptionLength),
    enabled: true,
    strategies: [],
  }))
  return createFlagSet(
    { payload: { version: 2, features }, source: 'upstream', revision: 1, loadedAt: 0 },
    { newEngine: () => createEngine(), responseCaches: undefined },
  )
}

describe('client API bodies', () => {
  it('one body per filter, whatever the query string looks like', () => {
    const flags = flagSet(10)
    const first = featuresBody(flags, token, 'project=a&project=b')
    expect(featuresBody(flags, token, 'project=b&project=a&project=a&junk=1')).toBe(first)
    for (let i = 0; i < 200; i++) expect(featuresBody(flags, token, `project=a&project=b&x=${i}`)).toBe(first)
    expect(JSON.parse(first.text).features).toHaveLength(10)
    const prefixed = featuresBody(flags, token, 'namePrefix=f-1')
    expect(prefixed).not.toBe(first)
    expect(JSON.parse(prefixed.text).features.map((f: { name: string }) => f.name)).toEqual(['f-1'])
  })

  it('keeps at most 64 filters, and about 32 MB of bodies', () => {
    const small = flagSet(10)
    const oldest = featuresBody(small, token, 'namePrefix=f-0')
    for (let i = 0; i < 64; i++) featuresBody(small, token, `namePrefix=x${i}`)
    expect(featuresBody(small, token, 'namePrefix=f-0')).not.toBe(oldest)

    // ~2 MB bodies, each a different selection (every project but one): the 17th pushes the first out.
    const large = flagSet(200, 10_000, (i) => `p${i}`)
    const first = featuresBody(large, token, 'namePrefix=f')
    expect(first.text.length).toBeGreaterThan(2_000_000)
    const allBut = (skipped: number) =>
      Array.from({ length: 200 }, (_, i) => i)
        .filter((i) => i !== skipped)
        .map((i) => `project=p${i}`)
        .join('&')
    for (let i = 0; i < 16; i++) featuresBody(large, token, `namePrefix=f&${allBut(i)}`)
    expect(featuresBody(large, token, 'namePrefix=f')).not.toBe(first)
  })
})
