import { createEngine } from '@vexil/engine'
import type { PayloadFilter } from '../schemas/action-set.js'
import { flattenPayload } from './flatten-payload.js'

const FLAG = 'action-set-filters'

/**
 * Compiles an action set's filters (all must match; none matches every signal) into a test of a
 * signal payload. The engine does the work: the filters become the constraints of a one-flag
 * payload, each on its own synthetic context field (`f0`, `f1`...), and the flattened payload's
 * value at each filter's path fills that field, so no payload key can collide with a context
 * field the engine treats specially.
 */
export function compileSignalFilter(filters: Record<string, PayloadFilter>): (payload: unknown) => boolean {
  const paths = Object.keys(filters)
  if (paths.length === 0) return () => true
  const engine = createEngine()
  const constraints = paths.map((path, i) => ({ ...filters[path], contextName: `f${i}` }))
  const warnings = engine.load({
    version: 2,
    features: [{ name: FLAG, enabled: true, strategies: [{ name: 'default', constraints }] }],
  })
  // Filters are validated when an action set is saved; a filter the engine refuses never matches.
  // A number or version the engine cannot read is not refused: that filter is false (true when
  // inverted), as it always was.
  if (warnings.some((w) => w.code !== 'invalid-number' && w.code !== 'invalid-semver')) return () => false
  return (payload) => {
    const flat = flattenPayload(payload)
    const context: Record<string, unknown> = {}
    paths.forEach((path, i) => {
      context[`f${i}`] = flat.get(path)
    })
    return engine.isEnabled(FLAG, context)
  }
}
