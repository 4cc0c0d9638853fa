// What explain returns (@vexil/engine/explain): why a flag has its result for a context, as
// plain JSON-serialisable data (absent things are null, never undefined) for a UI or a log.
// Built only when asked; see explain/flags.ts for how it stays equal to isEnabled, getVariant
// and evaluate.
import type { WarningCode } from '../warnings.js'
import type { EvaluationDetails, Variant } from '../types.js'

/** A problem `load` reported for a constraint or a strategy (as checkConstraint / checkStrategy give it). */
export interface ExplainedWarning {
  code: WarningCode
  message: string
}

/** Why the flag has its result, in the order the engine decides. */
export type ExplainOutcome =
  /** No flag of that name: off. */
  | 'not-found'
  /** The flag could not be compiled (`invalid` says why): always off. */
  | 'invalid'
  /** The flag is off in the payload (its environment). */
  | 'disabled'
  /** On, but a dependency is not satisfied. */
  | 'dependency-unmet'
  /** On, without strategies: on for everyone. */
  | 'no-strategies'
  /** On, and `matchedStrategy` matched. */
  | 'strategy-matched'
  /** On, but no strategy matched: off. */
  | 'no-strategy-matched'
  /** A custom strategy threw (`error`); evaluate reports it, isEnabled throws it. */
  | 'error'

export interface FlagExplanation {
  name: string
  /** `project` and `type` of the flag's definition, when the payload has them. */
  project: string | null
  type: string | null
  /** The result, equal to isEnabled, getVariant and evaluate for the same context. */
  enabled: boolean
  variant: Variant
  details: EvaluationDetails
  outcome: ExplainOutcome
  /** The flag's own `enabled` in the payload (on or off in its environment). */
  flagEnabled: boolean
  /** Why the flag could not be compiled, when it could not. */
  invalid: string | null
  /** A custom strategy's error, for outcome `error`. */
  error: string | null
  /** The time DATE constraints compared with (ISO): the context's `currentTime`, else now; null when unparseable. */
  currentTime: string | null
  /** The result came from a random draw (random stickiness, or none of the stickiness fields): another call may differ. */
  random: boolean
  /** Checked in order until one is unmet; none are checked when the flag is off. */
  dependencies: DependencyExplanation[]
  /** In order; those after the first that matched are not evaluated. */
  strategies: StrategyExplanation[]
  /** Index in `strategies` of the strategy that matched, or null. */
  matchedStrategy: number | null
  variantExplanation: VariantExplanation
}

export interface DependencyExplanation {
  /** The parent flag. */
  feature: string
  /** Wanted: the parent on (true) or off (false). */
  enabled: boolean
  /** When listed, the parent's variant must be one of these. */
  variants: string[] | null
  /** What the parent evaluated to for the same context; null when it was not evaluated. */
  parent: { enabled: boolean; variant: string } | null
  /** Why the parent could not be used: it does not exist, or has dependencies of its own (one level only). */
  problem: 'unknown-parent' | 'parent-has-dependencies' | null
  /** null: not checked (the flag is off, or an earlier dependency was unmet). */
  satisfied: boolean | null
}

export interface StrategyExplanation {
  /** The strategy's name in the payload (`flexibleRollout`, a custom name...). */
  name: string
  title: string | null
  /** As the definition says. Servers leave disabled strategies out of client payloads; like the Node SDK, the engine evaluates one it is given. */
  disabled: boolean
  /** Whether the strategy was evaluated (false after the one that matched, or when the flag is off). */
  evaluated: boolean
  /** null when not evaluated. */
  matched: boolean | null
  /** The first reason it failed (constraints, then segments, then its own test), or null. */
  failure: StrategyFailure | null
  constraints: ConstraintExplanation[]
  segments: SegmentExplanation[]
  /** The strategy's own test. */
  test: StrategyTestExplanation
  /** Problems `load` reported for its parameters (a rollout that is not a number, IPs that are not addresses, an unknown name). */
  warnings: ExplainedWarning[]
  /** The strategy has variants of its own (used when it matches and one has weight). */
  hasVariants: boolean
}

export type StrategyFailure =
  | { at: 'constraint'; index: number; message: string }
  | { at: 'segment'; id: number | null; index: number | null; message: string }
  | { at: 'test'; message: string }

export interface ConstraintExplanation {
  contextName: string
  operator: string
  /** The values the engine uses (trimmed, empty ones dropped). */
  values: string[]
  value: string | null
  inverted: boolean
  caseInsensitive: boolean
  /** The value the constraint read from the context (DATE_*: the `currentTime` compared), null when missing. */
  seen: string | null
  /** The constraint's answer, inversion included; null when not evaluated. */
  result: boolean | null
  /** A problem with its literal (what checkConstraint gives), or null. */
  warning: ExplainedWarning | null
}

export interface SegmentExplanation {
  id: number | null
  name: string | null
  /** Whether the payload has the segment (a missing one fails the strategy). */
  found: boolean
  constraints: ConstraintExplanation[]
  /** Every constraint matched; null when not evaluated. */
  matched: boolean | null
}

/** A strategy's own test. `result` is null when it was not reached (a constraint or segment failed first). */
export type StrategyTestExplanation =
  | { type: 'default'; result: boolean | null }
  | RolloutExplanation
  | { type: 'userWithId'; userIds: string[]; seen: string | null; result: boolean | null }
  | { type: 'remoteAddress'; ips: string[]; seen: string | null; result: boolean | null }
  | { type: 'applicationHostname'; hostNames: string[]; hostname: string; result: boolean | null }
  /** A strategy given to createEngine: the host's code decides. */
  | { type: 'custom'; parameters: Record<string, unknown>; result: boolean | null }
  /** A name neither built in nor given to createEngine, or a strategy that is not an object: never matches. */
  | { type: 'unknown'; result: boolean | null }

/** flexibleRollout and the legacy gradualRollout* strategies: on when bucket <= percentage. */
export interface RolloutExplanation {
  type: 'rollout'
  /** The stickiness asked for: `default` (userId, else sessionId, else random), `random`, or a context field. */
  stickiness: string
  /** What was used: the field whose value was hashed, `random`, or null when the field was missing (off). */
  stickinessUsed: string | null
  /** The value hashed. */
  stickinessValue: string | null
  /** The hash group (the feature name when the strategy has none). */
  groupId: string
  /** null when it is not a number (the strategy never matches). */
  percentage: number | null
  /** The normalised bucket 1..100 of the value in the group; null when drawn at random or missing. */
  bucket: number | null
  result: boolean | null
}

export interface VariantCandidate {
  name: string
  weight: number
  /** The bucket range (1-based, inclusive) within the total weight this variant takes; null for weight 0. */
  from: number | null
  to: number | null
}

export interface VariantExplanation {
  /** Where the variant came from: the matched strategy's variants, the flag's, or none. */
  source: 'strategy' | 'flag' | 'none'
  /** Why there is none: the flag is off for the context, it has no variants, or none has weight. */
  none: 'flag-off' | 'no-variants' | 'no-weight' | null
  /** The matched strategy has variants but none with weight: the flag's variants were used. */
  strategyVariantsUnusable: boolean
  /** The variants chosen among, with their ranges; empty when none. */
  candidates: VariantCandidate[]
  totalWeight: number
  /** The override that chose the variant (flag variants only; checked before weights). */
  override: { contextName: string; values: string[]; seen: string; variant: string } | null
  /** Stickiness asked for: `default` (userId, sessionId, remoteAddress), `random`, or a field; null when no weights were used. */
  stickiness: string | null
  stickinessUsed: string | null
  stickinessValue: string | null
  /** The hash bucket 1..totalWeight; null when drawn at random or not used. */
  bucket: number | null
  /** The chosen variant's name, or null. */
  chosen: string | null
}
