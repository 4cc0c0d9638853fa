// Constraint rows of the strategy and segment forms: to and from the API's constraints, and their
// problems. A literal is checked by the engine's own compiler (checkConstraint), so the form
// flags exactly what the engine would reject, before it is saved.
import { checkConstraint } from '@vexil/engine'
import type { Constraint } from '../../types.ts'
import { isSingleValue, takesCaseInsensitive } from './strategy-summary.tsx'

export interface ConstraintRow {
  key: number
  contextName: string
  operator: string
  /** The values of a list operator (IN, NOT_IN, STR_*, IN_CIDR) added so far. */
  values: string[]
  /** What is typed in a list's input and not added yet: it counts as values (see rowValues). */
  draft: string
  /** The value of a single-value operator (NUM_*, DATE_*, SEMVER_*, REGEX). */
  value: string
  inverted: boolean
  caseInsensitive: boolean
}

/** Problems keyed by the id of the field they belong to (the form focuses the first). */
export type Problems = Record<string, string>

let nextKey = 1
/** A key unique in the page, for rows and the ids of their fields. */
export const newKey = (): number => nextKey++

export const newConstraint = (): ConstraintRow => ({
  key: newKey(),
  contextName: '',
  operator: 'IN',
  values: [],
  draft: '',
  value: '',
  inverted: false,
  caseInsensitive: false,
})

export function fromConstraint(c: Constraint): ConstraintRow {
  return {
    key: newKey(),
    contextName: c.contextName,
    operator: c.operator,
    values: c.values ?? [],
    draft: '',
    value: c.value ?? '',
    inverted: Boolean(c.inverted),
    caseInsensitive: Boolean(c.caseInsensitive),
  }
}

/** Comma-separated entries of a list input, trimmed, empty ones dropped. */
export const splitEntries = (text: string): string[] =>
  text
    .split(/[,\n]/)
    .map((v) => v.trim())
    .filter(Boolean)

/** The list's values with what is still typed in its input; duplicates once. */
export const withDraft = (values: string[], draft: string): string[] => [
  ...new Set([...values, ...splitEntries(draft)]),
]

/** As the API stores it (src/schemas/constraint.ts): `value` for single-value operators, else `values`. */
export function toConstraint(row: ConstraintRow): Constraint {
  const base = {
    contextName: row.contextName.trim(),
    operator: row.operator,
    inverted: row.inverted,
    caseInsensitive: takesCaseInsensitive(row.operator) && row.caseInsensitive,
  }
  return isSingleValue(row.operator)
    ? { ...base, value: row.value.trim() }
    : { ...base, values: withDraft(row.values, row.draft) }
}

/** The ids of a row's fields (constraints-editor.tsx renders them). */
export const fieldId = (row: ConstraintRow): string => `constraint-${row.key}-field`
export const valueId = (row: ConstraintRow): string => `constraint-${row.key}-value`

/**
 * Each row's problems. What the engine rejects is shown as soon as it is typed; a missing field
 * or value only once the person has tried to save (`submitted`), not while they fill the row in.
 */
export function constraintProblems(rows: ConstraintRow[], submitted: boolean): Problems {
  const problems: Problems = {}
  for (const row of rows) {
    const constraint = toConstraint(row)
    const empty = isSingleValue(row.operator) ? constraint.value === '' : (constraint.values?.length ?? 0) === 0
    if (submitted && !constraint.contextName)
      problems[fieldId(row)] = 'Name the context field this constraint reads, such as userId.'
    if (empty) {
      if (submitted)
        problems[valueId(row)] = isSingleValue(row.operator)
          ? `${row.operator} needs a value to compare with.`
          : 'Add at least one value.'
      continue
    }
    const warnings = checkConstraint(constraint)
    if (warnings.length > 0) problems[valueId(row)] = warnings.map((w) => engineSays(w.message)).join(' ')
  }
  return problems
}

/** The engine's warning, as a sentence for the form ("the constraint never matches" is what saving it would do). */
export const engineSays = (message: string): string => `The engine would reject this: ${message}.`

/** The service's validation details for `body.constraints.<i>…` (`at` is the prefix), placed on their rows. */
export function constraintServerProblems(
  details: { path?: string; message: string }[],
  rows: ConstraintRow[],
  at: string,
): Problems {
  const problems: Problems = {}
  for (const detail of details) {
    const path = detail.path ?? ''
    if (!path.startsWith(`${at}.`)) continue
    const [index, field] = path.slice(at.length + 1).split('.')
    const row = rows[Number(index)]
    if (row) problems[field === 'contextName' ? fieldId(row) : valueId(row)] = detail.message
  }
  return problems
}
