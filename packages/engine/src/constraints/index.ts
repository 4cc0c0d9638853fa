import { type SlotTable, stringify } from '../context.js'
import { compileCidr } from './cidr.js'
import { compileDate } from './date.js'
import { compileIn, compileNotIn } from './membership.js'
import { compileNumber } from './number.js'
import { compileRegexConstraint } from './regex.js'
import { compileSemver } from './semver.js'
import { compileString } from './string.js'
import type { OperatorCompiler, Predicate } from './types.js'

export type { Predicate } from './types.js'

const OPERATORS: Record<string, OperatorCompiler> = {
  IN: compileIn,
  NOT_IN: compileNotIn,
  STR_STARTS_WITH: compileString,
  STR_ENDS_WITH: compileString,
  STR_CONTAINS: compileString,
  NUM_EQ: compileNumber,
  NUM_GT: compileNumber,
  NUM_GTE: compileNumber,
  NUM_LT: compileNumber,
  NUM_LTE: compileNumber,
  DATE_AFTER: compileDate,
  DATE_BEFORE: compileDate,
  SEMVER_EQ: compileSemver,
  SEMVER_GT: compileSemver,
  SEMVER_GTE: compileSemver,
  SEMVER_LT: compileSemver,
  SEMVER_LTE: compileSemver,
  REGEX: compileRegexConstraint,
  IN_CIDR: compileCidr,
}

export const SUPPORTED_OPERATORS: readonly string[] = Object.keys(OPERATORS)

const never: Predicate = () => false

/** Node SDK value cleaning: every value trimmed, empty ones dropped. */
function cleanValues(values: unknown): string[] {
  if (!Array.isArray(values)) return []
  const out: string[] = []
  for (const raw of values) {
    const value = stringify(raw)?.trim()
    if (value) out.push(value)
  }
  return out
}

/**
 * Compiles one constraint. An unknown operator is false even when inverted (Node SDK);
 * otherwise `inverted` negates the operator's answer, including its "missing or invalid" false.
 */
export function compileConstraint(definition: unknown, fields: SlotTable, warn: (message: string) => void): Predicate {
  if (definition === null || typeof definition !== 'object') {
    warn('a constraint is not an object; it never matches')
    return never
  }
  const raw = definition as Record<string, unknown>
  const operator = typeof raw.operator === 'string' ? raw.operator : ''
  const compile = Object.prototype.hasOwnProperty.call(OPERATORS, operator) ? OPERATORS[operator] : undefined
  if (!compile) {
    warn(`unknown constraint operator "${String(raw.operator)}"; the constraint never matches`)
    return never
  }
  const contextName = stringify(raw.contextName) ?? ''
  const values = cleanValues(raw.values)
  const value = raw.value === undefined || raw.value === null ? undefined : stringify(raw.value)
  const caseInsensitive = raw.caseInsensitive === true
  const inverted = raw.inverted === true
  const key = JSON.stringify([contextName, operator, values, value ?? null, caseInsensitive, inverted])
  return fields.constraint(key, () => {
    const predicate = compile({ contextName, operator, values, value, caseInsensitive, field: fields.field(contextName) })
    return inverted ? (frame) => !predicate(frame) : predicate
  })
}

/** ANDs predicates with short-circuit; an empty list is true. */
export function allOf(predicates: Predicate[]): Predicate {
  switch (predicates.length) {
    case 0:
      return () => true
    case 1:
      return predicates[0]!
    case 2: {
      const [a, b] = predicates as [Predicate, Predicate]
      return (frame) => a(frame) && b(frame)
    }
    default:
      return (frame) => {
        for (let i = 0; i < predicates.length; i++) if (!predicates[i]!(frame)) return false
        return true
      }
  }
}
