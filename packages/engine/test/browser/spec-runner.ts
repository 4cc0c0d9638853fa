// Runs the client specification inside a browser page: the spec files are injected as
// `window.__specs`, results are left in `window.__results`.
import { createEngine } from '../../src/index.js'

interface Spec {
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

const specs = (globalThis as unknown as { __specs: Spec[] }).__specs
const failures: string[] = []
let passed = 0
for (const spec of specs) {
  const engine = createEngine()
  engine.load(spec.state)
  for (const test of spec.tests ?? []) {
    if (engine.isEnabled(test.toggleName, test.context) === test.expectedResult) passed++
    else failures.push(`${spec.name}: ${test.description}`)
  }
  for (const test of spec.variantTests ?? []) {
    const v = engine.getVariant(test.toggleName, test.context)
    const e = test.expectedResult
    const same =
      v.name === e.name &&
      v.enabled === e.enabled &&
      v.feature_enabled === e.feature_enabled &&
      JSON.stringify(v.payload) === JSON.stringify(e.payload)
    if (same) passed++
    else failures.push(`${spec.name}: ${test.description}`)
  }
}
;(globalThis as unknown as { __results: unknown }).__results = { passed, failures, userAgent: navigator.userAgent }
