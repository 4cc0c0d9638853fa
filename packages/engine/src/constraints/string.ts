import { readField } from '../context.js'
import type { ConstraintSpec, Predicate } from './types.js'

type Test = (value: string, needle: string) => boolean

const TESTS: Record<string, Test> = {
  STR_STARTS_WITH: (value, needle) => value.startsWith(needle),
  STR_ENDS_WITH: (value, needle) => value.endsWith(needle),
  STR_CONTAINS: (value, needle) => value.includes(needle),
}

/** STR_STARTS_WITH, STR_ENDS_WITH, STR_CONTAINS: any of the values; a missing field is false. */
export function compileString({ operator, values, caseInsensitive, field }: ConstraintSpec): Predicate {
  const test = TESTS[operator]!
  const needles = caseInsensitive ? values.map((v) => v.toLowerCase()) : values
  if (needles.length === 0) return () => false
  return (frame) => {
    let value = readField(frame, field)
    if (value === undefined) return false
    if (caseInsensitive) value = value.toLowerCase()
    for (const needle of needles) if (test(value, needle)) return true
    return false
  }
}
