import { stringify } from './coerce.js'
import type { Resolver } from './frame.js'

const hasOwn = Object.prototype.hasOwnProperty

/** The ids Node reads at the top level only, judging them by truthiness. */
export type TopLevelField = 'userId' | 'sessionId' | 'remoteAddress'

/**
 * Node SDK semantics (docs/evaluation.md section 0): the top-level field, else
 * `properties[field]`; null or undefined is missing; anything else is `String()`-ed. Names
 * that exist on `Object.prototype` (`constructor`, `__proto__`...) only read own properties,
 * so a context can never resolve to an inherited function.
 */
export function fieldResolver(field: string): Resolver {
  if (field in Object.prototype) {
    return (context) => {
      if (hasOwn.call(context, field)) {
        const value = stringify(context[field])
        if (value !== undefined) return value
      }
      const properties = context.properties
      if (properties !== null && typeof properties === 'object' && hasOwn.call(properties, field)) {
        return stringify(properties[field])
      }
      return undefined
    }
  }
  return (context) => {
    const top = context[field]
    if (typeof top === 'string') return top
    if (top !== undefined && top !== null) return stringify(top)
    const properties = context.properties
    if (properties === null || properties === undefined) return undefined
    return stringify(properties[field])
  }
}

/** The top-level value of a well-known field when truthy (Node judges these ids by truthiness). */
export function topLevelResolver(field: TopLevelField): Resolver {
  return (context) => {
    const value = context[field]
    if (typeof value === 'string') return value === '' ? undefined : value
    if (value === null || value === undefined || value === false || value === 0) return undefined
    return stringify(value)
  }
}
