import { readField } from '../frame.js'
import { compileRegex } from '../regex/nfa.js'
import { type ConstraintSpec, type InvalidLiteral, type Predicate, invalidLiteral } from './types.js'

/**
 * REGEX: an unanchored search with RE2 syntax and semantics, on a linear-time matcher.
 * `caseInsensitive` sets the `i` flag. A pattern RE2 rejects (lookaround, backreferences)
 * makes the constraint false.
 */
export function compileRegexConstraint({ value, caseInsensitive, field }: ConstraintSpec): Predicate | InvalidLiteral {
  if (value === undefined) return invalidLiteral('invalid-regex', value, 'RE2 pattern')
  let matches: (input: string) => boolean
  try {
    matches = compileRegex(caseInsensitive ? `(?i)${value}` : value)
  } catch (error) {
    return invalidLiteral('invalid-regex', value, 'RE2 pattern', error instanceof Error ? error.message : undefined)
  }
  return (frame) => {
    const input = readField(frame, field)
    return input !== undefined && matches(input)
  }
}
