// A Thompson-NFA matcher: time linear in the input whatever the pattern, so a REGEX
// constraint like `(a+)+$` cannot hang evaluation on hostile context values (JS RegExp
// backtracks exponentially on it). We only answer "is there a match anywhere" (RE2 `find`),
// so captures and greediness do not matter and the simulation can stop at the first MATCH.
import type { CharTest } from './char-class.js'
import { type AssertKind, type RegexNode, RegexSyntaxError, parseRegex } from './parse.js'

const CHAR = 0
const SPLIT = 1
const JUMP = 2
const ASSERT = 3
const MATCH = 4

/** The most instructions a compiled pattern may have (RE2 also refuses programs that are too large). */
const MAX_PROGRAM = 50_000

interface Program {
  op: number[]
  /** CHAR: index into `tests`; SPLIT/JUMP: first target; ASSERT: assert kind index. */
  a: number[]
  /** SPLIT: second target. */
  b: number[]
  tests: CharTest[]
  anchoredStart: boolean
}

const ASSERTS: AssertKind[] = ['beginText', 'endText', 'beginLine', 'endLine', 'wordBoundary', 'notWordBoundary']

class ProgramBuilder {
  readonly op: number[] = []
  readonly a: number[] = []
  readonly b: number[] = []
  readonly tests: CharTest[] = []

  emit(op: number, a = 0, b = 0): number {
    if (this.op.length >= MAX_PROGRAM) throw new RegexSyntaxError('pattern too large')
    this.op.push(op)
    this.a.push(a)
    this.b.push(b)
    return this.op.length - 1
  }

  node(node: RegexNode): void {
    switch (node.kind) {
      case 'empty':
        return
      case 'char':
        this.tests.push(node.test)
        this.emit(CHAR, this.tests.length - 1)
        return
      case 'assert':
        this.emit(ASSERT, ASSERTS.indexOf(node.assert))
        return
      case 'concat':
        for (const item of node.items) this.node(item)
        return
      case 'alternate': {
        const jumps: number[] = []
        node.items.forEach((item, index) => {
          if (index < node.items.length - 1) {
            const split = this.emit(SPLIT)
            this.a[split] = this.op.length
            this.node(item)
            jumps.push(this.emit(JUMP))
            this.b[split] = this.op.length
          } else {
            this.node(item)
          }
        })
        for (const jump of jumps) this.a[jump] = this.op.length
        return
      }
      case 'repeat':
        this.repeat(node.item, node.min, node.max)
        return
    }
  }

  private repeat(item: RegexNode, min: number, max: number): void {
    for (let i = 0; i < min; i++) this.node(item)
    if (max === -1) {
      // x*: L1: split L2, L3; L2: x; jump L1; L3:
      const split = this.emit(SPLIT)
      this.a[split] = this.op.length
      this.node(item)
      this.emit(JUMP, split)
      this.b[split] = this.op.length
      return
    }
    const splits: number[] = []
    for (let i = min; i < max; i++) {
      const split = this.emit(SPLIT)
      this.a[split] = this.op.length
      splits.push(split)
      this.node(item)
    }
    for (const split of splits) this.b[split] = this.op.length
  }
}

function isWordChar(cp: number): boolean {
  return (cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a) || cp === 0x5f
}

/** Compiles an RE2 pattern; throws `RegexSyntaxError` for what RE2 would reject. */
export function compileRegex(pattern: string): (input: string) => boolean {
  const tree = parseRegex(pattern)
  const builder = new ProgramBuilder()
  builder.node(tree)
  builder.emit(MATCH)
  const first = tree.kind === 'concat' ? tree.items[0] : tree
  const program: Program = {
    op: builder.op,
    a: builder.a,
    b: builder.b,
    tests: builder.tests,
    anchoredStart: first?.kind === 'assert' && first.assert === 'beginText',
  }
  return (input) => run(program, input)
}

function run(program: Program, input: string): boolean {
  const { op, a, b, tests } = program
  const size = op.length
  let current = new Int32Array(size)
  let next = new Int32Array(size)
  let currentCount = 0
  let nextCount = 0
  // `seen[pc] === generation` marks pc as already added for this input position.
  const seen = new Int32Array(size).fill(-1)
  const stack = new Int32Array(size * 2 + 2)
  let generation = 0

  let prev = -1 // code point before the cursor, -1 at the start
  let position = 0
  let cp = input.length > 0 ? input.codePointAt(0)! : -1 // code point after the cursor, -1 at the end

  /** Adds pc and everything reachable without consuming input; true when MATCH is reachable. */
  const add = (list: Int32Array, count: number, start: number): number => {
    let top = 0
    stack[top++] = start
    while (top > 0) {
      const pc = stack[--top]!
      if (seen[pc] === generation) continue
      seen[pc] = generation
      switch (op[pc]) {
        case CHAR:
          list[count++] = pc
          break
        case MATCH:
          return -1
        case JUMP:
          stack[top++] = a[pc]!
          break
        case SPLIT:
          stack[top++] = b[pc]!
          stack[top++] = a[pc]!
          break
        case ASSERT:
          if (assertHolds(a[pc]!, prev, cp)) stack[top++] = pc + 1
          break
      }
    }
    return count
  }

  for (;;) {
    if (position === 0 || !program.anchoredStart) {
      currentCount = add(current, currentCount, 0)
      if (currentCount < 0) return true
    }
    if (cp === -1 || (currentCount === 0 && program.anchoredStart)) return false
    const width = cp > 0xffff ? 2 : 1
    const consumed = cp
    prev = consumed
    position += width
    cp = position < input.length ? input.codePointAt(position)! : -1
    generation++
    nextCount = 0
    for (let i = 0; i < currentCount; i++) {
      const pc = current[i]!
      if (tests[a[pc]!]!(consumed)) {
        nextCount = add(next, nextCount, pc + 1)
        if (nextCount < 0) return true
      }
    }
    const swap = current
    current = next
    next = swap
    currentCount = nextCount
  }
}

function assertHolds(kind: number, prev: number, next: number): boolean {
  switch (ASSERTS[kind]) {
    case 'beginText':
      return prev === -1
    case 'endText':
      return next === -1
    case 'beginLine':
      return prev === -1 || prev === 10
    case 'endLine':
      return next === -1 || next === 10
    case 'wordBoundary':
      return (prev !== -1 && isWordChar(prev)) !== (next !== -1 && isWordChar(next))
    case 'notWordBoundary':
      return (prev !== -1 && isWordChar(prev)) === (next !== -1 && isWordChar(next))
    default:
      return false
  }
}
