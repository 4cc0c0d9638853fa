import { readField } from '../frame.js'
import { compileRegex } from '../regex/nfa.js'
import type { ConstraintSpec, Predicate } from './types.js'

/**
 * REGEX: an unanchored search with RE2 syntax and semantics, on a linear-time matcher.
 * `caseInsensitive` sets the `i` flag. A pattern RE2 rejects (lookaround, backreferences)
 * returns undefined: the constraint is false.
 */
export function compileRegexConstraint({ value, caseInsensitive, field }: ConstraintSpec): Predicate | undefined {
  if (value === undefined) return undefined
  let matches: (input: string) => boolean
  try {
    matches = compileRegex(caseInsensitive ? `(?i)${value}` : value)
  } catch {
    return undefined
  }
  return (frame) => {
    const input = readField(frame, field)
    return input !== undefined && matches(input)
  }
}
