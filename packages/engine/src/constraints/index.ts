import { stringify } from '../coerce.js'
import type { SlotTable } from '../slot-table.js'
import { DATE, type Gate, IN, NEVER, NOT_IN, NUMBER, PREDICATE, SEMVER, STRING, gate, neverGate } from '../gates.js'
import { compileCidr } from './cidr.js'
import { compileDate } from './date.js'
import { compileNumber } from './number.js'
import { compileRegexConstraint } from './regex.js'
import { compileSemver } from './semver.js'
import { compileString } from './string.js'
import type { ConstraintSpec } from './types.js'

export type { Predicate } from './types.js'

/** Each operator's gate kind and the compiler of its data; undefined data means "always false". */
const OPERATORS: Record<string, { kind: number; compile: (spec: ConstraintSpec) => unknown }> = {
  IN: { kind: IN, compile: (spec) => spec.slots.membership(spec.field, spec.values) },
  NOT_IN: { kind: NOT_IN, compile: (spec) => spec.slots.membership(spec.field, spec.values) },
  STR_STARTS_WITH: { kind: STRING, compile: compileString },
  STR_ENDS_WITH: { kind: STRING, compile: compileString },
  STR_CONTAINS: { kind: STRING, compile: compileString },
  NUM_EQ: { kind: NUMBER, compile: compileNumber },
  NUM_GT: { kind: NUMBER, compile: compileNumber },
  NUM_GTE: { kind: NUMBER, compile: compileNumber },
  NUM_LT: { kind: NUMBER, compile: compileNumber },
  NUM_LTE: { kind: NUMBER, compile: compileNumber },
  DATE_AFTER: { kind: DATE, compile: compileDate },
  DATE_BEFORE: { kind: DATE, compile: compileDate },
  SEMVER_EQ: { kind: SEMVER, compile: compileSemver },
  SEMVER_GT: { kind: SEMVER, compile: compileSemver },
  SEMVER_GTE: { kind: SEMVER, compile: compileSemver },
  SEMVER_LT: { kind: SEMVER, compile: compileSemver },
  SEMVER_LTE: { kind: SEMVER, compile: compileSemver },
  REGEX: { kind: PREDICATE, compile: compileRegexConstraint },
  IN_CIDR: { kind: PREDICATE, compile: compileCidr },
}

export const SUPPORTED_OPERATORS: readonly string[] = Object.keys(OPERATORS)

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
 * Identical constraints (a segment's, or a common `environment IN [production]`) compile to
 * one gate; from its second use on, its result is kept for the rest of an evaluation.
 */
export type ConstraintCache = Map<string, Gate>

const MAX_SHARED_VALUES = 8

/**
 * An exact key for a constraint: the operator is one of OPERATORS' names and every other string
 * is prefixed by its length, so two keys are equal only for equal constraints, whatever the
 * strings hold (measured 8% of compiling 10k flags when it was JSON).
 */
function constraintKey(operator: string, contextName: string, inverted: boolean, caseInsensitive: boolean, value: string | undefined, values: readonly string[]): string {
  let key = `${operator}${inverted ? '!' : '='}${caseInsensitive ? 'i' : 's'}${contextName.length}:${contextName}${value === undefined ? '-' : `${value.length}:${value}`}`
  for (let i = 0; i < values.length; i++) key += `,${values[i]!.length}:${values[i]}`
  return key
}

/**
 * Compiles one constraint. An unknown operator is false even when inverted (Node SDK);
 * otherwise `inverted` negates the operator's answer, including its "missing or invalid" false.
 */
export function compileConstraint(definition: unknown, slots: SlotTable, cache: ConstraintCache, warn: (message: string) => void): Gate {
  if (definition === null || typeof definition !== 'object') {
    warn('a constraint is not an object; it never matches')
    return neverGate()
  }
  const raw = definition as Record<string, unknown>
  const operator = typeof raw.operator === 'string' ? raw.operator : ''
  const entry = Object.prototype.hasOwnProperty.call(OPERATORS, operator) ? OPERATORS[operator] : undefined
  if (!entry) {
    warn(`unknown constraint operator "${String(raw.operator)}"; the constraint never matches`)
    return neverGate()
  }
  const contextName = stringify(raw.contextName) ?? ''
  const values = cleanValues(raw.values)
  const value = raw.value === undefined || raw.value === null ? undefined : stringify(raw.value)
  const caseInsensitive = raw.caseInsensitive === true
  const inverted = raw.inverted === true
  // Long lists (user ids) are rarely repeated outside segments, which are shared as a whole,
  // and hashing their keys made compiling slow.
  const shareable = values.length <= MAX_SHARED_VALUES
  const key = shareable ? constraintKey(operator, contextName, inverted, caseInsensitive, value, values) : ''
  const cached = shareable ? cache.get(key) : undefined
  if (cached) {
    if (cached.memo < 0) cached.memo = slots.memo()
    return cached
  }
  const data = entry.compile({ contextName, operator, values, value, caseInsensitive, field: slots.field(contextName), slots })
  const compiled = data === undefined ? gate(NEVER, undefined, inverted) : gate(entry.kind, data, inverted)
  if (shareable) cache.set(key, compiled)
  return compiled
}
