// A gate is one compiled test of a strategy: a constraint, a segment's constraint, or the
// strategy's own test. Gates are data, the compiler's working form; each flag's gates are then
// encoded as numbers and evaluated by one switch (program.ts): every call site stays
// monomorphic, so V8 inlines the tests. A closure per gate was slower, because each call site
// saw hundreds of different closures (see `npm run bench -- engine`, evaluateAll, 200 flags).
import type { DateData } from './constraints/date.js'
import type { MembershipData } from './constraints/membership.js'
import type { NumberData } from './constraints/number.js'
import type { SemverData } from './constraints/semver.js'
import type { StringData } from './constraints/string.js'
import type { Predicate } from './constraints/types.js'

export const ALWAYS = 0
const NEVER = 1
export const IN = 2
export const NOT_IN = 3
export const STRING = 4
export const NUMBER = 5
export const DATE = 6
export const SEMVER = 7
export const ROLLOUT_FIELD = 8
export const ROLLOUT_DEFAULT = 9
export const ROLLOUT_RANDOM = 10
/** Anything rarer or heavier (REGEX, IN_CIDR, remoteAddress, custom strategies): a predicate. */
export const PREDICATE = 11

/** What each kind of gate tests with. */
interface GateData {
  [ALWAYS]: undefined
  [NEVER]: undefined
  [IN]: MembershipData
  [NOT_IN]: MembershipData
  [STRING]: StringData
  [NUMBER]: NumberData
  [DATE]: DateData
  [SEMVER]: SemverData
  /** The rollout's record in the bucket table (strategies/rollout.ts). */
  [ROLLOUT_FIELD]: number
  [ROLLOUT_DEFAULT]: number
  /** The percentage. */
  [ROLLOUT_RANDOM]: number
  [PREDICATE]: Predicate
}

type GateKind = keyof GateData

/** Relative cost of each kind for constraint ordering; a never-gate first short-circuits. */
export const GATE_COST: readonly number[] = [
  /* ALWAYS */ 1, /* NEVER */ 0, /* IN */ 2, /* NOT_IN */ 7, /* STRING */ 5, /* NUMBER */ 3, /* DATE */ 4,
  /* SEMVER */ 6, /* ROLLOUT_FIELD */ 8, /* ROLLOUT_DEFAULT */ 8, /* ROLLOUT_RANDOM */ 8, /* PREDICATE */ 9,
]

/** A gate of one kind. Every gate has this one shape, so V8 sees one hidden class. */
export interface GateOf<K extends GateKind> {
  readonly kind: K
  readonly inverted: boolean
  /** A result slot when the same constraint gates several strategies, else -1. */
  memo: number
  readonly data: GateData[K]
}

/** Discriminated by `kind`: a switch on it gives each test its data's type. */
export type Gate = { [K in GateKind]: GateOf<K> }[GateKind]

export function gate<K extends GateKind>(kind: K, data: GateData[K], inverted = false): GateOf<K> {
  return { kind, inverted, memo: -1, data }
}

export const alwaysGate = (): Gate => gate(ALWAYS, undefined)
/** Never passes; inverted, always passes (an unusable constraint that says `inverted`). */
export const neverGate = (inverted = false): Gate => gate(NEVER, undefined, inverted)
