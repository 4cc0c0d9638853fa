// Evaluation reads compiled features (docs/evaluation.md sections 5 and 6): dependencies,
// then `enabled`, then strategies ORed in order; the first matching strategy's variants win
// over the feature's variants. Nothing here allocates: results are the prebuilt outcomes.
import { type CompiledDependency, type CompiledFeature, FEATURE_VARIANTS, STRATEGY_BITS } from './compile-feature.js'
import type { CompiledStrategy } from './compile-strategy.js'
import type { FlagIndex } from './flag-index.js'
import type { Frame } from './frame.js'
import { OFF, ON_WITHOUT_STRATEGIES, matchStrategies } from './program.js'
import { DISABLED_VARIANT, ENABLED_WITHOUT_VARIANT, featureVariant, strategyVariant, toggle } from './outcomes.js'
import type { EvaluatedToggle } from './types.js'
import { selectVariant } from './variants.js'

/** The loaded flags by name (a FlagIndex in an engine). */
export interface FeatureLookup {
  get(name: string): CompiledFeature | undefined
}

export function dependencySatisfied(dependency: CompiledDependency, frame: Frame, features: FeatureLookup): boolean {
  // Looked up at evaluation time: parents can change through delta events.
  const parent = features.get(dependency.parent)
  // One level only: a parent with dependencies of its own never satisfies (defeats cycles).
  return (
    parent !== undefined &&
    !parent.dependencies &&
    satisfiedBy(dependency, parent, matchFeature(parent, frame, features), frame)
  )
}

/** Whether the parent's match (and then its variant) is what the dependency wants. */
function satisfiedBy(dependency: CompiledDependency, parent: CompiledFeature, match: number, frame: Frame): boolean {
  if (!dependency.expectEnabled) return match === OFF
  if (match === OFF || !dependency.variants) return match !== OFF
  const variant = enabledOutcome(parent, match, frame).variant
  return variant.feature_enabled && dependency.variants.has(variant.name)
}

/** OFF, ON_WITHOUT_STRATEGIES, or the index of the first matching strategy. */
export function matchFeature(feature: CompiledFeature, frame: Frame, features: FeatureLookup): number {
  if (!feature.enabled) return OFF
  const dependencies = feature.dependencies
  if (dependencies) {
    for (let i = 0; i < dependencies.length; i++)
      if (!dependencySatisfied(dependencies[i]!, frame, features)) return OFF
  }
  return matchStrategies(frame, feature.pc)
}

export function isFeatureEnabled(feature: CompiledFeature, frame: Frame, features: FeatureLookup): boolean {
  return matchFeature(feature, frame, features) !== OFF
}

// Slots of `CompiledFeature.outcomes`.
export const OFF_OUTCOME = 0
export const ON_WITHOUT_VARIANT_OUTCOME = 1
export const FIRST_VARIANT_OUTCOME = 2

export function outcome(feature: CompiledFeature, slot: number): EvaluatedToggle {
  const built = feature.outcomes[slot]
  if (built) return built
  const { name, impressionData } = feature
  return (feature.outcomes[slot] =
    slot === OFF_OUTCOME
      ? toggle(name, false, DISABLED_VARIANT, impressionData)
      : slot === ON_WITHOUT_VARIANT_OUTCOME
        ? toggle(name, true, ENABLED_WITHOUT_VARIANT, impressionData)
        : toggle(name, true, featureVariant(feature.variantDefinitions[slot - FIRST_VARIANT_OUTCOME]), impressionData))
}

export function strategyOutcome(feature: CompiledFeature, strategy: CompiledStrategy, index: number): EvaluatedToggle {
  return (strategy.outcomes[index] ??= toggle(
    feature.name,
    true,
    strategyVariant(strategy.variantDefinitions[index]),
    feature.impressionData,
  ))
}

function withFeatureVariant(feature: CompiledFeature, frame: Frame): EvaluatedToggle {
  const index = feature.variants ? selectVariant(feature.variants, frame) : -1
  return outcome(feature, index < 0 ? ON_WITHOUT_VARIANT_OUTCOME : FIRST_VARIANT_OUTCOME + index)
}

/** Enabled state and variant in one pass; the result is shared and frozen. */
export function evaluateFeature(feature: CompiledFeature, frame: Frame, features: FeatureLookup): EvaluatedToggle {
  const match = matchFeature(feature, frame, features)
  return match === OFF ? outcome(feature, OFF_OUTCOME) : enabledOutcome(feature, match, frame)
}

// evaluateAll's view of the flags (`flagTable`): per flag in payload order, its code offset
// when the strategies alone decide, else one of these.
/** Off: nothing to evaluate. */
const ENTRY_OFF = -1
/** With dependencies: tested through `parents` (below), then its strategies at its `pc`. */
const ENTRY_DEPENDS = -2

/**
 * The flags in payload order as evaluateAll reads them. Why: with cold CPU caches (inside a
 * server) or many flags, each object a flag's evaluation reads is likely a cache miss. `entries`
 * are consecutive numbers, so learning that a flag is off reads no object; `variantBits` says
 * where a flag's variants are, so a flag that is on answers its one enabled result from
 * `onOutcomes` without reading its strategies when the strategy that matched has no variants
 * and the flag has none either (profiling the loop with 10k flags found most of its own time in
 * reading the matched strategy and its variants; see `npm run bench -- large`).
 */
export interface FlagTable {
  readonly order: readonly CompiledFeature[]
  readonly entries: Int32Array
  /** Per flag, its `variantBits` (compile-feature.ts). */
  readonly variantBits: Int32Array
  /** A flag's enabled result without a variant, made on first use. */
  readonly onOutcomes: Array<EvaluatedToggle | undefined>
  /** Per flag with dependencies: each parent's index in `order` (-1: no such flag). */
  readonly parents: Array<Int32Array | undefined>
  /**
   * Each flag's match (as matchFeature) in the evaluateAll running now: a parent that comes
   * before its child in the payload (the usual order) is not evaluated twice. Owned by one
   * evaluateAll at a time (`busy`): one nested in it (a custom strategy calling the engine)
   * gets an array of its own.
   */
  readonly matches: Int32Array
  busy: boolean
}

const entryOf = (feature: CompiledFeature): number =>
  !feature.enabled ? ENTRY_OFF : feature.dependencies ? ENTRY_DEPENDS : feature.pc

const parentsOf = (feature: CompiledFeature, flags: FlagIndex): Int32Array | undefined =>
  feature.dependencies && Int32Array.from(feature.dependencies, ({ parent }) => flags.positions.get(parent) ?? -1)

export function flagTable(flags: FlagIndex): FlagTable {
  const order = flags.list
  const entries = new Int32Array(order.length)
  const variantBits = new Int32Array(order.length)
  const parents = new Array<Int32Array | undefined>(order.length)
  for (let i = 0; i < order.length; i++) {
    const feature = order[i]!
    entries[i] = entryOf(feature)
    variantBits[i] = feature.variantBits
    parents[i] = parentsOf(feature, flags)
  }
  return tableOf(order, entries, variantBits, new Array(order.length).fill(undefined), parents)
}

/**
 * `flagTable(flags)` from the table of flags with the same names in the same places, where only
 * the flags at `changed` differ: a streamed change to one flag copies the table's arrays instead
 * of reading every flag again.
 */
export function patchedTable(table: FlagTable, flags: FlagIndex, changed: Iterable<number>): FlagTable {
  const entries = table.entries.slice()
  const variantBits = table.variantBits.slice()
  const onOutcomes = table.onOutcomes.slice()
  const parents = table.parents.slice()
  for (const i of changed) {
    const feature = flags.list[i]!
    entries[i] = entryOf(feature)
    variantBits[i] = feature.variantBits
    onOutcomes[i] = undefined
    parents[i] = parentsOf(feature, flags)
  }
  return tableOf(flags.list, entries, variantBits, onOutcomes, parents)
}

function tableOf(
  order: readonly CompiledFeature[],
  entries: Int32Array,
  variantBits: Int32Array,
  onOutcomes: Array<EvaluatedToggle | undefined>,
  parents: Array<Int32Array | undefined>,
): FlagTable {
  return { order, entries, variantBits, onOutcomes, parents, matches: new Int32Array(order.length), busy: false }
}

/** Appends the enabled results of the table's flags to `result`, in order. */
export function collectEnabled(
  table: FlagTable,
  frame: Frame,
  features: FeatureLookup,
  result: EvaluatedToggle[],
): void {
  const { order, entries, variantBits, onOutcomes } = table
  const matches = table.busy ? new Int32Array(entries.length) : table.matches
  table.busy = true
  try {
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i]!
      const match =
        entry === ENTRY_OFF
          ? OFF
          : entry === ENTRY_DEPENDS
            ? dependenciesSatisfied(table, i, matches, frame, features)
              ? matchStrategies(frame, order[i]!.pc)
              : OFF
            : matchStrategies(frame, entry)
      matches[i] = match
      if (match === OFF) continue
      const bits = variantBits[i]!
      if (match >= STRATEGY_BITS || (match >= 0 && (bits & (1 << match)) !== 0))
        result.push(enabledOutcome(order[i]!, match, frame))
      else if ((bits & FEATURE_VARIANTS) !== 0) result.push(withFeatureVariant(order[i]!, frame))
      else result.push(onOutcomes[i] ?? (onOutcomes[i] = outcome(order[i]!, ON_WITHOUT_VARIANT_OUTCOME)))
    }
  } finally {
    if (matches === table.matches) table.busy = false
  }
}

/**
 * dependencySatisfied for each of flag `child`'s dependencies, reading a parent's match from
 * `matches` when the parent comes first in the table (evaluated already in this pass).
 */
function dependenciesSatisfied(
  table: FlagTable,
  child: number,
  matches: Int32Array,
  frame: Frame,
  features: FeatureLookup,
): boolean {
  const dependencies = table.order[child]!.dependencies!
  const parents = table.parents[child]!
  for (let d = 0; d < dependencies.length; d++) {
    const at = parents[d]!
    if (at < 0 || at >= child) {
      // Unknown, or after the child: looked up and evaluated, as on its own.
      if (!dependencySatisfied(dependencies[d]!, frame, features)) return false
    } else {
      const parent = table.order[at]!
      if (parent.dependencies || !satisfiedBy(dependencies[d]!, parent, matches[at]!, frame)) return false
    }
  }
  return true
}

function enabledOutcome(feature: CompiledFeature, match: number, frame: Frame): EvaluatedToggle {
  if (match === ON_WITHOUT_STRATEGIES) return withFeatureVariant(feature, frame)
  const strategy = feature.strategies[match]!
  if (strategy.variants) {
    const index = selectVariant(strategy.variants, frame)
    if (index >= 0) return strategyOutcome(feature, strategy, index)
  }
  return withFeatureVariant(feature, frame)
}
