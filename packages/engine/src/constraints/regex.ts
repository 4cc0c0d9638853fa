import { readField } from '../context.js'
import { compileRegex } from '../regex/nfa.js'
import type { ConstraintSpec, Predicate } from './types.js'

/**
 * REGEX: an unanchored search with RE2 syntax and semantics, on a linear-time matcher.
 * `caseInsensitive` sets the `i` flag. A pattern RE2 rejects (lookaround, backreferences) is false.
 */
export function compileRegexConstraint({ value, caseInsensitive, field }: ConstraintSpec): Predicate {
  if (value === undefined) return () => false
  let matches: (input: string) => boolean
  try {
    matches = compileRegex(caseInsensitive ? `(?i)${value}` : value)
  } catch {
    return () => false
  }
  return (frame) => {
    const input = readField(frame, field)
    return input !== undefined && matches(input)
  }
}
