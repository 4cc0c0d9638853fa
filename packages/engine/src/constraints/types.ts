import type { FieldAccessor, Frame } from '../frame.js'
import type { ParseCaches } from '../parse-cache.js'
import type { SlotTable } from '../slot-table.js'
import type { WarningCode } from '../warnings.js'

/** A test that does not need a dedicated gate kind (rare or expensive operators). */
export type Predicate = (frame: Frame) => boolean

/** A constraint after validation: values trimmed, empty ones dropped, the accessor chosen. */
export interface ConstraintSpec {
  contextName: string
  operator: string
  values: readonly string[]
  value: string | undefined
  caseInsensitive: boolean
  inverted: boolean
  field: FieldAccessor
  slots: SlotTable
  caches: ParseCaches
}

/**
 * A literal the operator cannot use: the constraint is then false (true when inverted), as in the
 * Node SDK, and the load warns with `reason`.
 */
export class InvalidLiteral {
  constructor(
    readonly code: WarningCode,
    readonly reason: string,
  ) {}
}

const MAX_SHOWN = 80

/** `"12x" is not a valid number`, or `no number given`; long literals are cut for the log. */
export function invalidLiteral(
  code: WarningCode,
  value: string | undefined,
  noun: string,
  detail?: string,
): InvalidLiteral {
  if (value === undefined) return new InvalidLiteral(code, `no ${noun} given`)
  const shown = JSON.stringify(value.length > MAX_SHOWN ? `${value.slice(0, MAX_SHOWN)}...` : value)
  return new InvalidLiteral(code, `${shown} is not a valid ${noun}${detail ? ` (${detail})` : ''}`)
}
