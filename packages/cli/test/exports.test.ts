import { describe, expect, it } from 'vitest'

// Pins the public surface of src/index.ts (docs/architecture.md, "Packages"): a change to it is a decision, not a side effect.
describe('@vexil/cli public surface', () => {
  it('exports exactly these names', async () => {
    expect(Object.keys(await import('../src/index.js')).sort()).toEqual(['runPlatform', 'runVexilCli'])
  })
})
