import type { FieldAccessor, Frame } from '../frame.js'
import type { ParseCaches } from '../parse-cache.js'
import type { SlotTable } from '../slot-table.js'

/** A test that does not need a dedicated gate kind (rare or expensive operators). */
export type Predicate = (frame: Frame) => boolean

/** A constraint after validation: values trimmed, empty ones dropped, the accessor chosen. */
export interface ConstraintSpec {
  contextName: string
  operator: string
  values: string[]
  value: string | undefined
  caseInsensitive: boolean
  inverted: boolean
  field: FieldAccessor
  slots: SlotTable
  caches: ParseCaches
}
