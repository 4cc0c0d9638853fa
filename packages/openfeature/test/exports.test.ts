import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { SDK_VERSION } from '../src/upstream.js'

// Pins the public surface of src/index.ts: a change to it is a decision, not a side effect.
describe('@vexil/openfeature public surface', () => {
  it('exports exactly these names', async () => {
    expect(Object.keys(await import('../src/index.js')).sort()).toEqual(['VexilProvider', 'toUnleashContext'])
  })

  it('announces the package version to the upstream (unleash-sdk header, registration)', () => {
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string
    }
    expect(SDK_VERSION).toBe(version)
  })
})
