import { isObject, stringify } from '../coerce.js'
import type { ParseCaches } from '../parse-cache.js'
import type { RawConstraint } from '../raw-payload.js'
import type { SlotTable } from '../slot-table.js'
import { DATE, type Gate, IN, NOT_IN, NUMBER, PREDICATE, SEMVER, STRING, gate, neverGate } from '../gates.js'
import { compileCidr } from './cidr.js'
import { compileDate } from './date.js'
import { compileNumber } from './number.js'
import { compileRegexConstraint } from './regex.js'
import { compileSemver } from './semver.js'
import { compileString } from './string.js'
import { type ConstraintSpec, InvalidLiteral } from './types.js'
import type { Warn } from '../warnings.js'

type OperatorCompiler = (spec: ConstraintSpec, warn: Warn) => Gate

/**
 * A literal the operator cannot use makes a never-gate: false, or true when inverted (Node SDK
 * semantics, kept), and a warning naming the field, the operator and the literal.
 */
function checked<T>(spec: ConstraintSpec, warn: Warn, data: T | InvalidLiteral, toGate: (data: T) => Gate): Gate {
  if (!(data instanceof InvalidLiteral)) return toGate(data)
  const outcome = spec.inverted ? 'the inverted constraint always matches' : 'the constraint never matches'
  warn(data.code, `${spec.operator} on "${spec.contextName}": ${data.reason}; ${outcome}`)
  return neverGate(spec.inverted)
}

const inGate: OperatorCompiler = (spec) => gate(IN, spec.slots.membership(spec.field, spec.values), spec.inverted)
const notInGate: OperatorCompiler = (spec) =>
  gate(NOT_IN, spec.slots.membership(spec.field, spec.values), spec.inverted)
const stringGate: OperatorCompiler = (spec) => gate(STRING, compileString(spec), spec.inverted)
const numberGate: OperatorCompiler = (spec, warn) =>
  checked(spec, warn, compileNumber(spec), (data) => gate(NUMBER, data, spec.inverted))
const dateGate: OperatorCompiler = (spec, warn) =>
  checked(spec, warn, compileDate(spec), (data) => gate(DATE, data, spec.inverted))
const semverGate: OperatorCompiler = (spec, warn) =>
  checked(spec, warn, compileSemver(spec), (data) => gate(SEMVER, data, spec.inverted))
const regexGate: OperatorCompiler = (spec, warn) =>
  checked(spec, warn, compileRegexConstraint(spec), (data) => gate(PREDICATE, data, spec.inverted))
const cidrGate: OperatorCompiler = (spec, warn) => gate(PREDICATE, compileCidr(spec, warn), spec.inverted)

/** Each operator's compiler. */
const OPERATORS: Record<string, OperatorCompiler> = {
  IN: inGate,
  NOT_IN: notInGate,
  STR_STARTS_WITH: stringGate,
  STR_ENDS_WITH: stringGate,
  STR_CONTAINS: stringGate,
  NUM_EQ: numberGate,
  NUM_GT: numberGate,
  NUM_GTE: numberGate,
  NUM_LT: numberGate,
  NUM_LTE: numberGate,
  DATE_AFTER: dateGate,
  DATE_BEFORE: dateGate,
  SEMVER_EQ: semverGate,
  SEMVER_GT: semverGate,
  SEMVER_GTE: semverGate,
  SEMVER_LT: semverGate,
  SEMVER_LTE: semverGate,
  REGEX: regexGate,
  IN_CIDR: cidrGate,
}

export const SUPPORTED_OPERATORS: readonly string[] = Object.keys(OPERATORS)

/**
 * Node SDK value cleaning: every value trimmed, empty ones dropped. A list that is clean already
 * (nearly every list) is returned as it is, not copied: read only, like the definition it is in
 * (a copy per constraint was a tenth of what compiling 10k flags allocated).
 */
export function cleanValues(values: unknown): readonly string[] {
  if (!Array.isArray(values)) return []
  let clean = true
  for (let i = 0; i < values.length && clean; i++) {
    const value: unknown = values[i]
    clean = typeof value === 'string' && value !== '' && value.trim() === value
  }
  if (clean) return values as string[]
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
 * strings hold; cheaper to build than JSON (see `npm run bench -- engine`, "compile 10k flags").
 */
function constraintKey(
  operator: string,
  contextName: string,
  inverted: boolean,
  caseInsensitive: boolean,
  value: string | undefined,
  values: readonly string[],
): string {
  let key = `${operator}${inverted ? '!' : '='}${caseInsensitive ? 'i' : 's'}${contextName.length}:${contextName}${value === undefined ? '-' : `${value.length}:${value}`}`
  for (let i = 0; i < values.length; i++) key += `,${values[i]!.length}:${values[i]}`
  return key
}

/** What compiling a constraint uses besides the constraint: the engine's slots and caches. */
interface ConstraintEnvironment {
  slots: SlotTable
  /** Constraints compiled so far in this payload, shared by identical ones. */
  constraints: ConstraintCache
  caches: ParseCaches
}

/**
 * Compiles one constraint. An unknown operator is false even when inverted (Node SDK);
 * otherwise `inverted` negates the operator's answer, including its "missing or invalid" false.
 */
export function compileConstraint(definition: unknown, env: ConstraintEnvironment, warn: Warn): Gate {
  if (!isObject(definition)) {
    warn('invalid-constraint', 'a constraint is not an object; it never matches')
    return neverGate()
  }
  const raw: RawConstraint = definition
  const operator = typeof raw.operator === 'string' ? raw.operator : ''
  const compile = Object.hasOwn(OPERATORS, operator) ? OPERATORS[operator] : undefined
  if (!compile) {
    warn('unknown-operator', `unknown constraint operator "${String(raw.operator)}"; the constraint never matches`)
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
  const { slots, constraints: cache } = env
  const cached = shareable ? cache.get(key) : undefined
  if (cached) {
    if (cached.memo < 0) cached.memo = slots.memo()
    return cached
  }
  let warned = false
  const noted: Warn = (code, message) => {
    warned = true
    warn(code, message)
  }
  const compiled = compile(
    {
      contextName,
      operator,
      values,
      value,
      caseInsensitive,
      inverted,
      field: slots.field(contextName),
      slots,
      caches: env.caches,
    },
    noted,
  )
  // A constraint with an unusable literal is compiled again wherever it recurs, so that every
  // flag that has it gets its warning.
  if (shareable && !warned) cache.set(key, compiled)
  return compiled
}
