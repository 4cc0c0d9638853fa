// One strategy of a flag, explained: its constraints and segments (by their twins, twins.ts), then
// its own test, run from the engine's compiled flag (the gate compile-strategy.ts put last),
// with what the test read shown beside it.
import { isObject, stringify, toNumber } from '../coerce.js'
import type { CompiledFeature } from '../compile-feature.js'
import { topLevelResolver } from '../field-resolvers.js'
import { type Frame, readField } from '../frame.js'
import { IN, ROLLOUT_DEFAULT, ROLLOUT_FIELD, ROLLOUT_RANDOM, type Gate } from '../gates.js'
import { bucketAt } from '../hash.js'
import type { RawStrategy, StoredSegment } from '../raw-payload.js'
import { strategyTestOffset, testGateAt } from '../program.js'
import type { SlotTable } from '../slot-table.js'
import { groupIdParameter, listParameter, percentageParameter } from '../strategies/params.js'
import { rolloutRecord } from '../strategies/rollout.js'
import type { CustomStrategy } from '../types.js'
import { explainConstraint, type TwinConstraint, type Twins } from './twins.js'
import type {
  RolloutExplanation,
  SegmentExplanation,
  StrategyExplanation,
  StrategyFailure,
  StrategyTestExplanation,
} from './types.js'

/** What the engine's settings and compiled state give every explanation. */
export interface ExplainScope {
  /** The engine's evaluation of the context, and the twins'. */
  frame: Frame
  twinFrame: Frame
  slots: SlotTable
  segments: ReadonlyMap<number, StoredSegment>
  customStrategies: ReadonlyMap<string, CustomStrategy>
  hostname: string
}

/** A strategy's twins, compiled before any evaluation starts (twins.ts). */
export interface PreparedStrategy {
  definition: RawStrategy | undefined
  constraints: TwinConstraint[]
  segments: Array<{ id: number; segment: StoredSegment | undefined; constraints: TwinConstraint[] }>
  warnings: StrategyExplanation['warnings']
}

export function prepareStrategy(
  definition: unknown,
  featureName: string,
  twins: Twins,
  segments: ReadonlyMap<number, StoredSegment>,
): PreparedStrategy {
  const raw = isObject(definition) ? (definition as RawStrategy) : undefined
  const list = (value: unknown): readonly unknown[] => (Array.isArray(value) ? value : [])
  return {
    definition: raw,
    constraints: list(raw?.constraints).map((constraint) => twins.constraint(constraint)),
    segments: list(raw?.segments).map((value) => {
      const id = toNumber(value)
      const segment = segments.get(id)
      return { id, segment, constraints: list(segment?.constraints).map((constraint) => twins.constraint(constraint)) }
    }),
    warnings: twins.strategyWarnings(definition, featureName),
  }
}

const GRADUAL_STICKINESS: Readonly<Record<string, string>> = {
  gradualRolloutUserId: 'userId',
  gradualRolloutSessionId: 'sessionId',
  gradualRolloutRandom: 'random',
}
const ROLLOUTS = new Set(['flexibleRollout', ...Object.keys(GRADUAL_STICKINESS)])

/** What a rollout read: the stickiness value and its bucket, from the compiled rollout's record. */
function explainRollout(
  name: string,
  parameters: Record<string, unknown>,
  test: Gate,
  featureName: string,
  scope: ExplainScope,
): RolloutExplanation {
  const { frame, slots } = scope
  const groupId = groupIdParameter(parameters.groupId, featureName)
  const shown = (stickiness: string, percentage: number): RolloutExplanation => ({
    type: 'rollout',
    stickiness,
    stickinessUsed: null,
    stickinessValue: null,
    groupId,
    percentage: Number.isFinite(percentage) ? percentage : null,
    bucket: null,
    result: null,
  })
  if (test.kind === ROLLOUT_RANDOM) return { ...shown('random', test.data), stickinessUsed: 'random' }
  if (test.kind === ROLLOUT_FIELD || test.kind === ROLLOUT_DEFAULT) {
    const record = rolloutRecord(frame.buckets, test.data)
    const hashed = (field: number, value: string | undefined): Partial<RolloutExplanation> =>
      value === undefined || value === ''
        ? {}
        : {
            stickinessUsed: slots.fieldName(field),
            stickinessValue: value,
            bucket: bucketAt(frame.buckets, test.data, value),
          }
    if (test.kind === ROLLOUT_FIELD)
      return {
        ...shown(slots.fieldName(record.field), record.percentage),
        ...hashed(record.field, readField(frame, record.field)),
      }
    const first = readField(frame, record.field)
    const used =
      first !== undefined ? hashed(record.field, first) : hashed(record.fallback, readField(frame, record.fallback))
    return { ...shown('default', record.percentage), stickinessUsed: 'random', ...used }
  }
  // Never matches: no percentage (or 0), so nothing was compiled to read.
  const percentage = percentageParameter(name === 'flexibleRollout' ? parameters.rollout : parameters.percentage)
  return shown(GRADUAL_STICKINESS[name] ?? (stringify(parameters.stickiness) || 'default'), percentage)
}

/** The strategy's own test as it is shown, before it is run. */
function describeTest(
  raw: RawStrategy | undefined,
  test: Gate,
  featureName: string,
  scope: ExplainScope,
): StrategyTestExplanation {
  const name = stringify(raw?.name) ?? ''
  const parameters = raw && isObject(raw.parameters) ? raw.parameters : {}
  // Custom strategies come first, as in compile-strategy.ts (they can replace a built-in).
  if (!raw || scope.customStrategies.has(name))
    return raw ? { type: 'custom', parameters, result: null } : { type: 'unknown', result: null }
  if (ROLLOUTS.has(name)) return explainRollout(name, parameters, test, featureName, scope)
  switch (name) {
    case 'default':
      return { type: 'default', result: null }
    case 'userWithId':
      return {
        type: 'userWithId',
        userIds: listParameter(parameters.userIds),
        seen: test.kind === IN ? (readField(scope.frame, test.data.index.field) ?? null) : null,
        result: null,
      }
    case 'remoteAddress':
      return {
        type: 'remoteAddress',
        ips: listParameter(parameters.IPs),
        seen: topLevelResolver('remoteAddress')(scope.frame.context) ?? null,
        result: null,
      }
    case 'applicationHostname':
      return {
        type: 'applicationHostname',
        hostNames: listParameter(parameters.hostNames),
        hostname: scope.hostname,
        result: null,
      }
    default:
      return { type: 'unknown', result: null }
  }
}

function failureOf(strategy: Pick<StrategyExplanation, 'constraints' | 'segments' | 'test'>): StrategyFailure | null {
  const constraint = strategy.constraints.findIndex((c) => c.result === false)
  if (constraint >= 0) {
    const { contextName, operator, seen } = strategy.constraints[constraint]!
    return {
      at: 'constraint',
      index: constraint,
      message: `${contextName} ${operator} did not match (saw ${seen === null ? 'nothing' : JSON.stringify(seen)})`,
    }
  }
  const segment = strategy.segments.find((s) => s.matched === false)
  if (segment) {
    if (!segment.found)
      return { at: 'segment', id: segment.id, index: null, message: `segment ${segment.id} does not exist` }
    const index = segment.constraints.findIndex((c) => c.result === false)
    const { contextName, operator, seen } = segment.constraints[index]!
    return {
      at: 'segment',
      id: segment.id,
      index,
      message: `segment ${segment.name ?? segment.id}: ${contextName} ${operator} did not match (saw ${seen === null ? 'nothing' : JSON.stringify(seen)})`,
    }
  }
  if (strategy.test.result !== false) return null
  const test = strategy.test
  switch (test.type) {
    case 'rollout':
      if (test.percentage === null || test.percentage <= 0)
        return { at: 'test', message: 'the rollout is 0 % or not a number' }
      if (test.stickinessUsed === null) return { at: 'test', message: `${test.stickiness} is missing from the context` }
      return {
        at: 'test',
        message:
          test.bucket === null
            ? `the random draw was above ${test.percentage}`
            : `bucket ${test.bucket} is above ${test.percentage}`,
      }
    case 'userWithId':
      return {
        at: 'test',
        message:
          test.seen === null
            ? 'userId is missing from the context'
            : `userId ${JSON.stringify(test.seen)} is not listed`,
      }
    case 'remoteAddress':
      return {
        at: 'test',
        message:
          test.seen === null
            ? 'remoteAddress is missing from the context'
            : `remoteAddress ${JSON.stringify(test.seen)} is not listed`,
      }
    case 'applicationHostname':
      return { at: 'test', message: `the host name ${JSON.stringify(test.hostname)} is not listed` }
    case 'custom':
      return { at: 'test', message: 'the custom strategy answered false' }
    case 'unknown':
      return { at: 'test', message: 'the strategy is unknown to the engine; it never matches' }
    default:
      return { at: 'test', message: 'the strategy did not match' }
  }
}

/**
 * Explains strategy `index` of `feature`; evaluates it when `evaluate`. Its own test runs only
 * once its constraints and segments passed, as in the engine (it may draw a random number or call
 * a host's strategy). A throwing custom strategy's CustomStrategyError is the caller's to catch.
 */
export function explainStrategy(
  feature: CompiledFeature,
  index: number,
  prepared: PreparedStrategy,
  scope: ExplainScope,
  evaluate: boolean,
): StrategyExplanation {
  const raw = prepared.definition
  const twinFrame = evaluate ? scope.twinFrame : undefined
  const constraints = prepared.constraints.map((twin) => explainConstraint(twin, twinFrame))
  const segments = prepared.segments.map(({ id, segment, constraints: twins }): SegmentExplanation => {
    const explained = twins.map((twin) => explainConstraint(twin, twinFrame))
    return {
      id: Number.isFinite(id) ? id : null,
      name: stringify(segment?.name) ?? null,
      found: segment !== undefined,
      constraints: explained,
      matched: evaluate ? segment !== undefined && explained.every((c) => c.result === true) : null,
    }
  })
  const compiled = feature.strategies[index]!
  const test = describeTest(raw, compiled.test, feature.name, scope)
  const reached = evaluate && constraints.every((c) => c.result === true) && segments.every((s) => s.matched === true)
  if (reached) {
    const { frame } = scope
    test.result = testGateAt(frame, frame.code, strategyTestOffset(frame.code, feature.pc, index))
  }
  const explained = { constraints, segments, test }
  // Fields of the admin API's strategies that client payloads may carry.
  const extra: Record<string, unknown> = { ...raw }
  return {
    name: stringify(raw?.name) ?? '',
    title: stringify(extra.title) || null,
    disabled: extra.disabled === true,
    evaluated: evaluate,
    matched: evaluate ? test.result === true : null,
    failure: evaluate ? failureOf(explained) : null,
    ...explained,
    warnings: prepared.warnings,
    hasVariants: compiled.variantDefinitions.length > 0,
  }
}
