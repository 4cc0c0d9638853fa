import type { FieldAccessor, Frame } from '../context.js'

export type Predicate = (frame: Frame) => boolean

/** A constraint after validation: values trimmed, empty ones dropped, the accessor chosen. */
export interface ConstraintSpec {
  contextName: string
  operator: string
  values: string[]
  value: string | undefined
  caseInsensitive: boolean
  field: FieldAccessor
}

/** Compiles one operator family into an un-inverted predicate; inversion is applied by the caller. */
export type OperatorCompiler = (spec: ConstraintSpec) => Predicate
