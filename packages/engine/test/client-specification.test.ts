// The official conformance suite, driven from the package's own index.json: every toggle and
// variant case is its own test, and explain (@vexil/engine/explain) gives the same answer for each.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createEngine } from '@vexil/engine'
import { explain } from '@vexil/engine/explain'

const require = createRequire(import.meta.url)
const specDir = join(dirname(require.resolve('@unleash/client-specification/package.json')), 'specifications')
const index: string[] = JSON.parse(readFileSync(join(specDir, 'index.json'), 'utf8'))

interface SpecFile {
  name: string
  state: unknown
  tests?: Array<{ description: string; context: Record<string, unknown>; toggleName: string; expectedResult: boolean }>
  variantTests?: Array<{
    description: string
    context: Record<string, unknown>
    toggleName: string
    expectedResult: { name: string; enabled: boolean; feature_enabled: boolean; payload?: unknown }
  }>
}

const files = index.map((file) => ({ file, spec: JSON.parse(readFileSync(join(specDir, file), 'utf8')) as SpecFile }))

it('the suite is complete: 22 files, 227 toggle tests, 52 variant tests', () => {
  expect(files).toHaveLength(22)
  expect(files.reduce((n, { spec }) => n + (spec.tests?.length ?? 0), 0)).toBe(227)
  expect(files.reduce((n, { spec }) => n + (spec.variantTests?.length ?? 0), 0)).toBe(52)
})

/**
 * The warnings each file's payload must give, and no others: the spec's deliberately broken
 * definitions (a bad CIDR, operator, segment, parent or regex) compile to never-matching gates
 * and say so; every other definition compiles cleanly.
 */
const EXPECTED_WARNINGS: Record<string, Array<[flag: string, code: string]>> = {
  '06-remote-address-strategy.json': [['Feature.remoteAddress.C', 'invalid-cidr']],
  '13-constraint-operators.json': [['F7.invalid-operator', 'unknown-operator']],
  '15-global-constraints.json': [['F9.withMissingSegment', 'unknown-segment']],
  '17-dependent-features.json': [['parents.not.exist.child.enabled', 'unknown-dependency']],
  '21-regex-constraint-operators.json': [
    ['invalid-regex-defaults-to-false', 'invalid-regex'],
    ['R90.reject_lookahead', 'invalid-regex'],
    ['R91.reject_backreference', 'invalid-regex'],
  ],
  '22-cidr-constraint-operators.json': [
    ['CIDR.mixed.values', 'invalid-cidr'],
    ['CIDR.invalid.only', 'invalid-cidr'],
    ['CIDR.ipv6.mixed.values', 'invalid-cidr'],
  ],
}

describe.each(files)('$file', ({ file, spec }) => {
  const engine = createEngine()
  const warnings = engine.load(spec.state)

  it('loads with exactly the warnings its broken definitions call for', () => {
    expect(warnings.map((warning) => [warning.flag, warning.code])).toEqual(EXPECTED_WARNINGS[file] ?? [])
  })

  const toggleTests = spec.tests ?? []
  if (toggleTests.length > 0) {
    it.each(toggleTests)('$description', ({ context, toggleName, expectedResult }) => {
      expect(engine.isEnabled(toggleName, context)).toBe(expectedResult)
      expect(engine.evaluateAll(context, { names: [toggleName] })[0]!.enabled).toBe(expectedResult)
      expect(explain(engine, toggleName, context).enabled).toBe(expectedResult)
    })
  }

  const variantTests = spec.variantTests ?? []
  if (variantTests.length > 0) {
    it.each(variantTests)('$description', ({ context, toggleName, expectedResult }) => {
      const variant = engine.getVariant(toggleName, context)
      expect({
        name: variant.name,
        enabled: variant.enabled,
        feature_enabled: variant.feature_enabled,
        payload: variant.payload,
      }).toEqual({
        name: expectedResult.name,
        enabled: expectedResult.enabled,
        feature_enabled: expectedResult.feature_enabled,
        payload: expectedResult.payload,
      })
      expect(variant.featureEnabled).toBe(expectedResult.feature_enabled)
      const explained = explain(engine, toggleName, context)
      expect(explained.variant).toEqual(variant)
      if (explained.variantExplanation.chosen !== null)
        expect(explained.variantExplanation.chosen).toBe(expectedResult.name)
    })
  }
})
