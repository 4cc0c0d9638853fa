// A payload's strategies and gates encoded as numbers in one growing Int32Array, and the
// interpreter that runs them. Compiling builds gates as objects (gates.ts, the compiler's
// working form); each flag is then encoded here, once, at the end of its compile.
//
// Why: inside a server the engine runs with the CPU caches cold, because handling a request
// touches megabytes between two evaluations. Evaluated over objects (a flag, its strategy list,
// each strategy, its gate list, each gate, each gate's data: several objects per flag, spread
// over the heap), an evaluation with cold caches took a multiple of one with warm caches (see
// `npm run bench -- engine`, evaluateAll with cold CPU caches). Encoded, a flag's strategies and
// gates are a few consecutive cache lines, and
// a gate's data is read from its own object only when the gate is actually tested (not for a
// shared constraint's remembered answer, nor for a list membership or a rollout, whose numbers
// are in the code or the bucket table).
//
// Layout, from a flag's offset:
//   [strategy count]
//   per strategy: [gate count], then per gate GATE_SIZE numbers:
//     [kind | inverted << 4, memo slot or -1, a, b, c]
// where, by kind: IN / NOT_IN: a = the list index's `looked` slot, b = the list's slot,
// c = the list index in `side`; ROLLOUT_FIELD / ROLLOUT_DEFAULT: a = the rollout's record in the
// bucket table; every other kind with data: a = the data in `side`.
//
// A shared constraint gets its memo slot when its second user compiles (compile-strategy.ts,
// constraints/index.ts): the first user, encoded before, tests it without the memo. That is only
// one lookup fewer shared; the answer is the same.
import type { Frame } from './frame.js'
import { testDate, type DateData } from './constraints/date.js'
import { type NumberData, testNumber } from './constraints/number.js'
import { type SemverData, testSemver } from './constraints/semver.js'
import { type StringData, testString } from './constraints/string.js'
import type { Predicate } from './constraints/types.js'
import {
  ALWAYS,
  DATE,
  type Gate,
  IN,
  NOT_IN,
  NUMBER,
  PREDICATE,
  ROLLOUT_DEFAULT,
  ROLLOUT_FIELD,
  ROLLOUT_RANDOM,
  SEMVER,
  STRING,
} from './gates.js'
import { type ListIndex, lookUp } from './list-index.js'
import { testRolloutDefault, testRolloutField, testRolloutRandom } from './strategies/rollout.js'

const GATE_SIZE = 5
const INVERTED = 16
const KIND_MASK = 15

/** No strategy matched, or the flag is off. */
export const OFF = -1
/** On, with no strategies. */
export const ON_WITHOUT_STRATEGIES = -2

interface Program {
  /** Replaced by a larger array as flags are added (at compile time only). */
  code: Int32Array
  /** Numbers in use. */
  size: number
  /** Gate data that is not a number: constraint data, list indexes, predicates. */
  readonly side: unknown[]
}

export function createProgram(): Program {
  return { code: new Int32Array(1024), size: 0, side: [] }
}

/** Appends a flag's strategies (each a list of gates, ANDed); returns the flag's offset. */
export function encodeStrategies(program: Program, strategies: ReadonlyArray<readonly Gate[]>): number {
  let words = 1
  for (const gates of strategies) words += 1 + gates.length * GATE_SIZE
  if (program.size + words > program.code.length) {
    const grown = new Int32Array(Math.max(program.code.length * 2, program.size + words))
    grown.set(program.code.subarray(0, program.size))
    program.code = grown
  }
  const code = program.code
  const at = program.size
  let pc = at
  code[pc++] = strategies.length
  for (const gates of strategies) {
    code[pc++] = gates.length
    for (const gate of gates) {
      encodeGate(program, gate, code, pc)
      pc += GATE_SIZE
    }
  }
  program.size = pc
  return at
}

/** Writes a gate's GATE_SIZE numbers at `pc` (the code is zeroed where they go unused). */
function encodeGate(program: Program, gate: Gate, code: Int32Array, pc: number): void {
  code[pc] = gate.kind | (gate.inverted ? INVERTED : 0)
  code[pc + 1] = gate.memo
  switch (gate.kind) {
    case IN:
    case NOT_IN:
      code[pc + 2] = gate.data.looked
      code[pc + 3] = gate.data.slot
      code[pc + 4] = side(program, gate.data.index)
      break
    case ROLLOUT_FIELD:
    case ROLLOUT_DEFAULT:
      code[pc + 2] = gate.data
      break
    case STRING:
    case NUMBER:
    case DATE:
    case SEMVER:
    case ROLLOUT_RANDOM:
    case PREDICATE:
      code[pc + 2] = side(program, gate.data)
      break
    default: // ALWAYS, NEVER: no data
  }
}

function side(program: Program, data: unknown): number {
  return program.side.push(data) - 1
}

/** OFF, ON_WITHOUT_STRATEGIES, or the index of the first strategy whose gates all pass. */
export function matchStrategies(frame: Frame, at: number): number {
  const code = frame.code
  const strategies = code[at]!
  if (strategies === 0) return ON_WITHOUT_STRATEGIES
  let pc = at + 1
  for (let s = 0; s < strategies; s++) {
    const gates = code[pc++]!
    const end = pc + gates * GATE_SIZE
    let passed = true
    for (; pc < end; pc += GATE_SIZE) {
      if (!testGateAt(frame, code, pc)) {
        passed = false
        break
      }
    }
    if (passed) return s
    pc = end
  }
  return OFF
}

/**
 * The offset of strategy `strategy`'s last gate in the flag at `at`: its own test, which
 * compile-strategy.ts always puts last.
 */
export function strategyTestOffset(code: Int32Array, at: number, strategy: number): number {
  let pc = at + 1
  for (let s = 0; s < strategy; s++) pc += 1 + code[pc]! * GATE_SIZE
  return pc + 1 + (code[pc]! - 1) * GATE_SIZE
}

/** Tests the gate at `pc` (explain tests a strategy's own test alone, by its offset). */
export function testGateAt(frame: Frame, code: Int32Array, pc: number): boolean {
  const memo = code[pc + 1]!
  if (memo >= 0 && frame.marks[memo] === frame.epoch) return frame.answers[memo] === 1
  const head = code[pc]!
  const a = code[pc + 2]!
  let result: boolean
  switch (head & KIND_MASK) {
    case ALWAYS:
      result = true
      break
    case IN:
      result = isListed(frame, a, code[pc + 3]!, code[pc + 4]!)
      break
    case NOT_IN:
      result = !isListed(frame, a, code[pc + 3]!, code[pc + 4]!)
      break
    case STRING:
      result = testString(frame.side[a] as StringData, frame)
      break
    case NUMBER:
      result = testNumber(frame.side[a] as NumberData, frame)
      break
    case DATE:
      result = testDate(frame.side[a] as DateData, frame)
      break
    case SEMVER:
      result = testSemver(frame.side[a] as SemverData, frame)
      break
    case ROLLOUT_FIELD:
      result = testRolloutField(a, frame)
      break
    case ROLLOUT_DEFAULT:
      result = testRolloutDefault(a, frame)
      break
    case ROLLOUT_RANDOM:
      result = testRolloutRandom(frame.side[a] as number, frame)
      break
    case PREDICATE:
      result = (frame.side[a] as Predicate)(frame)
      break
    default: // NEVER
      result = false
  }
  if ((head & INVERTED) !== 0) result = !result
  if (memo >= 0) {
    frame.marks[memo] = frame.epoch
    frame.answers[memo] = result ? 1 : 0
  }
  return result
}

/** Whether the field's value is in the list: `looked` and `slot` as in list-index.ts's Membership. */
function isListed(frame: Frame, looked: number, slot: number, index: number): boolean {
  if (frame.marks[looked] !== frame.epoch) lookUp(frame, frame.side[index] as ListIndex)
  return frame.marks[slot] === frame.epoch
}
