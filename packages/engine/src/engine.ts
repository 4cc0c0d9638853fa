import type { CompileEnvironment } from './compile-strategy.js'
import { type CompiledFeature, compileAlwaysOff, compileFeature } from './compile-feature.js'
import type { ConstraintCache } from './constraints/index.js'
import { parseContextVersion } from './constraints/semver.js'
import { parseAddress } from './ip.js'
import { type ParseCaches, createParseCache } from './parse-cache.js'
import { isObject } from './coerce.js'
import type { Frame } from './frame.js'
import { createSlotTable, type SlotTable } from './slot-table.js'
import {
  collectEnabled,
  evaluateFeature,
  type FeatureLookup,
  type FlagTable,
  flagTable,
  isFeatureEnabled,
  patchedTable,
} from './evaluate.js'
import { type FlagIndex, indexFlags, NO_FLAGS } from './flag-index.js'
import { DATE, type GateOf } from './gates.js'
import { DISABLED_VARIANT, unknownToggle } from './outcomes.js'
import { type DeltaStep, type PayloadChange, readPayload } from './read-payload.js'
import type { ClientFeaturesPayload, StoredFeature, StoredSegment } from './raw-payload.js'
import type { EngineWarning } from './warnings.js'
import { evaluateDetails, evaluationFailed, flagNotFound } from './details.js'
import { CustomStrategyError } from './errors.js'
import { asContext, explainSources, nameText } from './engine-access.js'
import type {
  Context,
  CustomStrategy,
  EngineOptions,
  EvaluateAllOptions,
  EvaluatedToggle,
  EvaluationDetails,
  EvaluationTrace,
  Variant,
} from './types.js'

/**
 * The five evaluation methods are one family (README, "Evaluation methods"): Unleash's answers
 * (`isEnabled`, `getVariant`, `evaluateAll`) and OpenFeature's (`evaluate`, `evaluateAllDetails`).
 * None throws on what a caller passes: a name no flag has gets the method's not-found answer, a
 * context that is not an object is an empty one, an option of the wrong type is ignored. The one
 * failure is a custom strategy that throws: Unleash's answers throw `CustomStrategyError`,
 * OpenFeature's give that flag a GENERAL error result with the same message.
 */
export interface Engine {
  /** Applies a full payload or delta events; returns warnings (never throws). */
  load(state: unknown): EngineWarning[]
  /** Whether the flag is on for the context; an unknown name is `false`. */
  isEnabled(name: string, context?: Context): boolean
  /** The flag's variant for the context; an unknown name is the disabled variant. */
  getVariant(name: string, context?: Context): Variant
  /** The evaluated toggles `/proxy` returns: enabled ones in payload order, unless options say otherwise. */
  evaluateAll(context?: Context, options?: EvaluateAllOptions): EvaluatedToggle[]
  /**
   * One flag's result in OpenFeature's vocabulary: value, variant, reason, error code, and
   * Unleash's answer beside them. An unknown name is FLAG_NOT_FOUND, a flag that did not compile
   * or a payload that does not fit its type PARSE_ERROR, a throwing custom strategy GENERAL.
   */
  evaluate(name: string, context?: Context): EvaluationDetails
  /** `evaluate` for every flag, in payload order, with one resolution of the context. */
  evaluateAllDetails(context?: Context, options?: { trace?: EvaluationTrace }): EvaluationDetails[]
  /** The current state as a full payload (definitions as received, with segments). */
  getState(): ClientFeaturesPayload<StoredFeature, StoredSegment>
  /**
   * A new engine with this one's flags, sharing their compiled form: delta events loaded into it
   * compile only the flags they touch, where a new engine loading `getState()` compiles them all.
   * This engine answers as before whatever the fork loads.
   */
  fork(): Engine
  /** The first DATE constraint instant at or after `after` (epoch ms), or Infinity. */
  nextTimeBoundary(after: number): number
  /** Number of features loaded. */
  readonly size: number
}

const isCustomStrategy = (value: unknown): value is CustomStrategy =>
  isObject(value) && typeof value.name === 'string' && typeof value.isEnabled === 'function'

function validateStrategies(strategies: readonly unknown[] = []): Map<string, CustomStrategy> {
  const map = new Map<string, CustomStrategy>()
  for (const strategy of strategies) {
    if (!isCustomStrategy(strategy)) {
      throw new TypeError('Invalid custom strategy: expected { name: string, isEnabled(parameters, context) }')
    }
    // The first strategy of a name wins, as in the Node SDK's lookup.
    if (!map.has(strategy.name)) map.set(strategy.name, strategy)
  }
  return map
}

/** Fills the caller's trace; one that is not an object is ignored, one that cannot be written (frozen) kept. */
function copyTrace(frame: Frame, trace: unknown): void {
  if (typeof trace !== 'object' || trace === null) return
  // Assignments in a try, not Reflect.set: on the proxy's every request, and Reflect.set is not inlined.
  try {
    const target = trace as EvaluationTrace
    target.usedRandom = frame.usedRandom
    target.usedClock = frame.usedClock
    target.usedCustomStrategy = frame.usedCustomStrategy
  } catch {
    // A frozen trace: the caller's input, never a reason to throw.
  }
}

/** A flag's details; a custom strategy that throws makes this flag's result an error, not the call's. */
function detailsOf(feature: CompiledFeature, frame: Frame, features: FeatureLookup): EvaluationDetails {
  try {
    return evaluateDetails(feature, frame, features)
  } catch (error) {
    if (error instanceof CustomStrategyError) return evaluationFailed(feature, error.message)
    throw error
  }
}

function defaultHostname(): string {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env
  return env?.HOSTNAME ?? 'undefined'
}

/**
 * Creates an engine. `strategies` are custom strategies (checked before the built-ins);
 * `hostname` is what `applicationHostname` compares with (default: `$HOSTNAME`, as the Node SDK).
 */
export function createEngine(options: EngineOptions = {}): Engine {
  const customStrategies = validateStrategies(options.strategies)
  const hostname = (options.hostname ?? defaultHostname()).toLowerCase()
  // Kept across loads: they hold parses of context values, which do not depend on the payload.
  return engineFrom(
    { customStrategies, hostname, caches: createParseCaches() },
    {
      slots: createSlotTable(),
      constraints: new Map(),
      segments: new Map(),
      flags: NO_FLAGS,
      fullSize: 0,
    },
  )
}

/** An engine's caches of parsed context values (see parse-cache.ts). */
export function createParseCaches(): ParseCaches {
  return {
    versions: createParseCache(parseContextVersion),
    addresses: createParseCache((text) => parseAddress(text) ?? null),
  }
}

/** What an engine and its forks share: the options, and the parses of context values. */
interface EngineSettings {
  customStrategies: Map<string, CustomStrategy>
  hostname: string
  caches: ParseCaches
}

/** The compiled state an engine starts from: empty, or its parent's when forked. */
interface CompiledState {
  slots: SlotTable
  constraints: ConstraintCache
  /** Never changed in place once made (a load replaces it): shared with forks. */
  segments: ReadonlyMap<number, StoredSegment>
  flags: FlagIndex
  /** `slots.size` after the last full compile (see `applyDelta`). */
  fullSize: number
  /**
   * evaluateAll's table of `flags`, when a parent has it already: a fork reads it as it is until
   * it loads something.
   */
  table?: FlagTable
}

function engineFrom(settings: EngineSettings, start: CompiledState): Engine {
  const { customStrategies, hostname, caches } = settings
  // Replaced with every full payload, so slots of constraints no flag uses are not kept forever.
  // Shared with forks until either compiles a full payload: the table only grows (a recompiled
  // flag takes new slots), so flags compiled into it by one engine never disturb the other's.
  let slots = start.slots
  let constraints = start.constraints
  let segments = start.segments
  let flags = start.flags
  let table = start.table ?? flagTable(flags)
  let dateTargets: number[] | undefined
  let fullSize = start.fullSize

  /**
   * Compiles definitions into the current slots: one environment for the batch, so a segment
   * used by many flags is compiled (and warned about) once.
   */
  function compiler(warnings: EngineWarning[]): (definition: StoredFeature) => CompiledFeature {
    const env: CompileEnvironment = {
      customStrategies,
      segments,
      hostname,
      slots,
      constraints,
      caches,
      segmentGates: new Map(),
      warn: (flag, code, message) => warnings.push({ flag, code, message }),
    }
    return (definition) => {
      try {
        return compileFeature(definition, env)
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error)
        warnings.push({
          flag: definition.name,
          code: 'invalid-flag',
          message: `could not be compiled (${reason}); the flag is off`,
        })
        return compileAlwaysOff(definition, `could not be compiled (${reason})`)
      }
    }
  }

  /** Compiles every definition afresh, in new slots. */
  function compileEverything(definitions: Iterable<StoredFeature>, warnings: EngineWarning[]): FlagIndex {
    slots = createSlotTable()
    constraints = new Map()
    const compile = compiler(warnings)
    const list: CompiledFeature[] = []
    for (const definition of definitions) list.push(compile(definition))
    fullSize = slots.size
    return indexFlags(list)
  }

  /** Applies delta events to `flags` and `table`. */
  function applyDelta(steps: readonly DeltaStep[], warnings: EngineWarning[]): void {
    // A batch that adds or removes a flag takes the general way below. The usual one (flags that
    // exist changed, segments changed) keeps the names' index and copies only the list.
    const reshapes = steps.some(
      (step) =>
        step.kind === 'hydrate' ||
        step.kind === 'feature-removed' ||
        (step.kind === 'feature-updated' && !flags.has(step.feature.name)),
    )
    // Changed definitions by name, in payload order when `reshapes` (a Map iterates in insertion
    // order: a flag removed and added again in one batch moves to the end).
    let definitions = new Map<string, StoredFeature>()
    if (reshapes) for (const feature of flags.list) definitions.set(feature.name, feature.definition)
    const dirty = new Set<string>()
    let hydrated = false
    let ownSegments = false
    const changeSegments = () => {
      if (!ownSegments) segments = new Map(segments)
      ownSegments = true
      return segments as Map<number, StoredSegment>
    }
    for (const step of steps) {
      switch (step.kind) {
        case 'hydrate':
          definitions = step.features
          segments = step.segments
          ownSegments = true
          dirty.clear()
          for (const name of definitions.keys()) dirty.add(name)
          hydrated = true
          break
        case 'feature-updated':
          definitions.set(step.feature.name, step.feature)
          dirty.add(step.feature.name)
          break
        case 'feature-removed':
          definitions.delete(step.name)
          dirty.add(step.name)
          break
        case 'segment-updated':
        case 'segment-removed':
          if (step.kind === 'segment-updated') changeSegments().set(step.segment.id, step.segment)
          else changeSegments().delete(step.id)
          for (const feature of flags.list) if (feature.segmentIds.includes(step.id)) dirty.add(feature.name)
          break
      }
    }
    if (hydrated) {
      // Every flag compiled afresh, in new slots, from the state the hydration left.
      slots = createSlotTable()
      constraints = new Map()
    }
    // In the order the events name the flags, as are their warnings.
    const compile = compiler(warnings)
    const recompiled = new Map<string, CompiledFeature>()
    for (const name of dirty) {
      const definition = reshapes ? definitions.get(name) : (definitions.get(name) ?? flags.get(name)!.definition)
      if (definition) recompiled.set(name, compile(definition))
    }
    if (hydrated) fullSize = slots.size
    if (reshapes) {
      const list: CompiledFeature[] = []
      for (const name of definitions.keys()) list.push(recompiled.get(name) ?? flags.get(name)!)
      use(indexFlags(list))
    } else {
      const list = flags.list.slice()
      const changed: number[] = []
      for (const [name, feature] of recompiled) {
        const at = flags.positions.get(name)!
        list[at] = feature
        changed.push(at)
      }
      use(flags.withList(list), changed)
    }
    // A recompiled flag takes new slots and leaves its old ones unused, and the slot table's
    // marks keep an entry for each: after many updates, start afresh (each flag's warnings
    // were said already).
    if (slots.size > 2 * fullSize + 4096) {
      use(
        compileEverything(
          flags.list.map((feature) => feature.definition),
          [],
        ),
      )
    }
  }

  /** Makes `next` the flags, with their table: patched when only the flags at `changed` differ. */
  function use(next: FlagIndex, changed?: readonly number[]): void {
    table = changed ? patchedTable(table, next, changed) : flagTable(next)
    flags = next
  }

  function apply(change: PayloadChange, warnings: EngineWarning[]): void {
    if (change.kind === 'replace') {
      segments = change.segments
      use(compileEverything(change.features.values(), warnings))
    } else {
      applyDelta(change.steps, warnings)
    }
    for (const feature of flags.list) {
      if (!feature.dependencies) continue
      for (const { parent } of feature.dependencies) {
        if (parent && !flags.has(parent)) {
          warnings.push({
            flag: feature.name,
            code: 'unknown-dependency',
            message: `depends on unknown feature "${parent}"; the dependency is never satisfied`,
          })
        }
      }
    }
  }

  const engine: Engine = {
    load(state) {
      dateTargets = undefined
      const warnings: EngineWarning[] = []
      const change = readPayload(state, warnings)
      if (change) apply(change, warnings)
      return warnings
    },
    isEnabled(name, context) {
      const feature = flags.get(name)
      return feature ? isFeatureEnabled(feature, slots.frame(asContext(context)), flags) : false
    },
    getVariant(name, context) {
      const feature = flags.get(name)
      return feature ? evaluateFeature(feature, slots.frame(asContext(context)), flags).variant : DISABLED_VARIANT
    },
    evaluateAll(context, options) {
      const frame = slots.frame(asContext(context))
      const names = options?.names
      // Not an array: ignored, as every option of the wrong type.
      if (names && Array.isArray(names)) {
        const listed = names.map((name) => {
          const feature = typeof name === 'string' ? flags.get(name) : undefined
          return feature ? evaluateFeature(feature, frame, flags) : unknownToggle(nameText(name))
        })
        if (options.trace) copyTrace(frame, options.trace)
        return listed
      }
      const result: EvaluatedToggle[] = []
      if (options?.includeDisabled === true) {
        const list = flags.list
        for (let i = 0; i < list.length; i++) result.push(evaluateFeature(list[i]!, frame, flags))
      } else {
        collectEnabled(table, frame, flags, result)
      }
      if (options?.trace) copyTrace(frame, options.trace)
      return result
    },
    evaluate(name, context) {
      const feature = flags.get(name)
      return feature ? detailsOf(feature, slots.frame(asContext(context)), flags) : flagNotFound(nameText(name))
    },
    evaluateAllDetails(context, options) {
      const frame = slots.frame(asContext(context))
      const list = flags.list
      const result: EvaluationDetails[] = new Array(list.length)
      for (let i = 0; i < list.length; i++) result[i] = detailsOf(list[i]!, frame, flags)
      if (options?.trace) copyTrace(frame, options.trace)
      return result
    },
    nextTimeBoundary(after) {
      // DATE constraints are the only clock readers: an answer computed at `after` holds until
      // the first constraint date at or after it.
      dateTargets ??= [...constraints.values()]
        .filter((gate): gate is GateOf<typeof DATE> => gate.kind === DATE)
        .map((gate) => gate.data.target)
        .sort((a, b) => a - b)
      for (const target of dateTargets) if (target >= after) return target
      return Number.POSITIVE_INFINITY
    },
    getState() {
      return { version: 2, features: flags.list.map((feature) => feature.definition), segments: [...segments.values()] }
    },
    fork() {
      // Nothing copied: a load replaces what it changes, never changes it in place.
      return engineFrom(settings, { slots, constraints, segments, flags, fullSize, table })
    },
    get size() {
      return flags.list.length
    },
  }
  // For @vexil/engine/explain: the state as it is when asked.
  explainSources.set(engine, () => ({ flags, segments, slots, customStrategies, hostname }))
  return engine
}
