import { describe, expect, it } from 'vitest'
import { BUILT_IN_STRATEGY_NAMES, createEngine } from '@vexil/engine'
import { BUILT_IN_STRATEGIES } from '../src/strategies/index.js'

// Two lists name the built-in strategies: the compilers (what the engine evaluates) and the names
// SDKs send when registering (in the Node SDK's order). They must name the same strategies.

describe('the built-in strategies', () => {
  it('the registered names and the compilers name the same strategies', () => {
    expect([...BUILT_IN_STRATEGY_NAMES].sort()).toEqual([...BUILT_IN_STRATEGIES.keys()].sort())
  })

  const codes = (name: string) =>
    createEngine()
      .load({ version: 2, features: [{ name: 'f', enabled: true, strategies: [{ name, parameters: {} }] }] })
      .map((warning) => warning.code)

  it.each([...BUILT_IN_STRATEGY_NAMES])('%s compiles without an unknown-strategy warning', (name) => {
    expect(codes(name)).not.toContain('unknown-strategy')
  })

  it('a name outside the list is an unknown strategy', () => {
    expect(codes('isFriday')).toContain('unknown-strategy')
  })
})
