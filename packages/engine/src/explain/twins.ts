// explain shows each constraint in the order it was written, with its own answer and the
// value it read. The engine's compiled strategies cannot show that: their constraints are merged
// with their segments' and reordered by cost, and identical ones are shared. So the explainer
// compiles each constraint again, with the engine's own compiler (compileConstraint), into a
// throwaway slot table: a twin that reads the same field and runs the same test (the program
// interpreter, as a one-gate strategy), and whose warnings are what checkConstraint gives.
import { isObject, stringify } from '../coerce.js'
import { type CompileEnvironment, compileStrategy } from '../compile-strategy.js'
import { cleanValues, compileConstraint } from '../constraints/index.js'
import { createParseCaches } from '../engine.js'
import { type FieldAccessor, type Frame, readField } from '../frame.js'
import { matchStrategies } from '../program.js'
import type { RawConstraint, StoredSegment } from '../raw-payload.js'
import { createSlotTable } from '../slot-table.js'
import type { Context, CustomStrategy } from '../types.js'
import type { ConstraintExplanation, ExplainedWarning } from './types.js'

/** A constraint compiled for explaining: what to show, and its one-gate program in the twin table. */
export interface TwinConstraint {
  shown: Omit<ConstraintExplanation, 'seen' | 'result'>
  field: FieldAccessor
  /** DATE_* compare `currentTime`, whatever the field (Node SDK). */
  date: boolean
  pc: number
}

export interface Twins {
  constraint(definition: unknown): TwinConstraint
  /** The warnings of a strategy's own parameters (its constraints and segments left out). */
  strategyWarnings(definition: unknown, featureName: string): ExplainedWarning[]
  /** Starts the twin evaluation, once every twin is compiled; `time` is the engine frame's. */
  frame(context: Context, time: number): Frame
}

export function createTwins(
  customStrategies: ReadonlyMap<string, CustomStrategy>,
  hostname: string,
  segments: ReadonlyMap<number, StoredSegment>,
): Twins {
  // Where the compiler's warnings go: emptied before each compile, read after it.
  let sink: ExplainedWarning[] = []
  const env: CompileEnvironment = {
    customStrategies,
    segments,
    hostname,
    slots: createSlotTable(),
    constraints: new Map(),
    caches: createParseCaches(),
    segmentGates: new Map(),
    warn: (_flag, code, message) => sink.push({ code, message }),
  }
  return {
    constraint(definition) {
      const raw: RawConstraint = isObject(definition) ? definition : {}
      sink = []
      const gate = compileConstraint(definition, env, (code, message) => env.warn(undefined, code, message))
      const [warning] = sink
      const contextName = stringify(raw.contextName) ?? ''
      const operator = raw.operator === undefined ? '' : (stringify(raw.operator) ?? '')
      const value = raw.value === undefined || raw.value === null ? null : (stringify(raw.value) ?? null)
      return {
        shown: {
          contextName,
          operator,
          values: [...cleanValues(raw.values)],
          value,
          inverted: raw.inverted === true,
          caseInsensitive: raw.caseInsensitive === true,
          warning: warning ?? null,
        },
        field: env.slots.field(contextName),
        date: operator.startsWith('DATE_'),
        pc: env.slots.encode([[gate]]),
      }
    },
    strategyWarnings(definition, featureName) {
      const own =
        isObject(definition) && !Array.isArray(definition)
          ? { ...definition, constraints: [], segments: [] }
          : definition
      sink = []
      compileStrategy(own, featureName, env)
      return sink
    },
    frame(context, time) {
      const frame = env.slots.frame(context)
      frame.time = time
      return frame
    },
  }
}

/** A twin's answer and the value it read, for the twin frame's context. */
export function explainConstraint(twin: TwinConstraint, frame: Frame | undefined): ConstraintExplanation {
  if (!frame) return { ...twin.shown, seen: null, result: null }
  const time = frame.time!
  const seen = twin.date
    ? Number.isNaN(time)
      ? null
      : new Date(time).toISOString()
    : (readField(frame, twin.field) ?? null)
  return { ...twin.shown, seen, result: matchStrategies(frame, twin.pc) === 0 }
}
