// A parser for RE2 syntax (https://github.com/google/re2/wiki/Syntax) into a small tree.
// What RE2 rejects is rejected here too (lookaround, backreferences, `\Z`, unknown escapes,
// repeat counts over 1000, `**`), so such constraints evaluate to false as in the SDKs.
import {
  type CharSet,
  type CharTest,
  caseVariants,
  compileCharSet,
  emptySet,
  perlClass,
  posixClass,
  unicodeClass,
} from './char-class.js'

export type AssertKind = 'beginText' | 'endText' | 'beginLine' | 'endLine' | 'wordBoundary' | 'notWordBoundary'

export type RegexNode =
  | { kind: 'char'; test: CharTest }
  | { kind: 'assert'; assert: AssertKind }
  | { kind: 'concat'; items: RegexNode[] }
  | { kind: 'alternate'; items: RegexNode[] }
  | { kind: 'repeat'; item: RegexNode; min: number; max: number }
  | { kind: 'empty' }

export class RegexSyntaxError extends Error {
  override name = 'RegexSyntaxError'
}

interface Flags {
  i: boolean
  m: boolean
  s: boolean
}

const MAX_REPEAT = 1000
const INFINITE = -1

const ESCAPED_CONTROL: Record<string, number> = { a: 7, f: 12, t: 9, n: 10, r: 13, v: 11 }

export function parseRegex(pattern: string): RegexNode {
  return new Parser(pattern).parse()
}

class Parser {
  private pos = 0
  constructor(private readonly src: string) {}

  parse(): RegexNode {
    const node = this.alternation({ i: false, m: false, s: false })
    if (this.pos < this.src.length) throw new RegexSyntaxError(`unexpected ) at ${this.pos}`)
    return node
  }

  private peek(offset = 0): string | undefined {
    return this.src[this.pos + offset]
  }

  private fail(message: string): never {
    throw new RegexSyntaxError(`${message} at ${this.pos}`)
  }

  private alternation(flags: Flags): RegexNode {
    const branches = [this.concatenation(flags)]
    while (this.peek() === '|') {
      this.pos++
      branches.push(this.concatenation(flags))
    }
    return branches.length === 1 ? branches[0]! : { kind: 'alternate', items: branches }
  }

  /** Flags set by `(?i)` inside a group last until the group ends, so `flags` is mutated here. */
  private concatenation(flags: Flags): RegexNode {
    const items: RegexNode[] = []
    while (this.pos < this.src.length) {
      const c = this.peek()
      if (c === '|' || c === ')') break
      const atom = this.atom(flags)
      if (atom === undefined) continue
      items.push(this.quantified(atom))
    }
    if (items.length === 0) return { kind: 'empty' }
    return items.length === 1 ? items[0]! : { kind: 'concat', items }
  }

  private quantified(atom: RegexNode): RegexNode {
    let repeated = false
    for (;;) {
      const c = this.peek()
      let min: number
      let max: number
      if (c === '*') [min, max] = [0, INFINITE]
      else if (c === '+') [min, max] = [1, INFINITE]
      else if (c === '?') [min, max] = [0, 1]
      else if (c === '{') {
        const bounds = this.repeatBounds()
        if (!bounds) return atom
        ;[min, max] = bounds
      } else return atom
      if (repeated) this.fail('bad repetition operator')
      if (c !== '{') this.pos++
      if (this.peek() === '?') this.pos++ // non-greedy: same language, and we only ask "is there a match"
      atom = { kind: 'repeat', item: atom, min, max }
      repeated = true
    }
  }

  /** Parses `{n}`, `{n,}` or `{n,m}` at the cursor; a `{` that is not one of these is a literal. */
  private repeatBounds(): [number, number] | undefined {
    const match = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.pos))
    if (!match) return undefined
    const min = Number(match[1])
    const max = match[2] === undefined ? min : match[3] === '' ? INFINITE : Number(match[3])
    if (min > MAX_REPEAT || max > MAX_REPEAT || (max !== INFINITE && max < min)) this.fail('bad repetition operator')
    this.pos += match[0].length
    return [min, max]
  }

  private atom(flags: Flags): RegexNode | undefined {
    const c = this.src[this.pos]!
    switch (c) {
      case '(':
        return this.group(flags)
      case '[':
        return this.charClass(flags)
      case '.':
        this.pos++
        return { kind: 'char', test: flags.s ? () => true : (cp) => cp !== 10 }
      case '^':
        this.pos++
        return { kind: 'assert', assert: flags.m ? 'beginLine' : 'beginText' }
      case '$':
        this.pos++
        return { kind: 'assert', assert: flags.m ? 'endLine' : 'endText' }
      case '*':
      case '+':
      case '?':
        return this.fail('missing argument to repetition operator')
      case '{':
        if (this.repeatBounds()) this.fail('missing argument to repetition operator')
        this.pos++
        return literal(0x7b, flags)
      case '\\':
        return this.escape(flags)
      default: {
        const cp = this.src.codePointAt(this.pos)!
        this.pos += cp > 0xffff ? 2 : 1
        return literal(cp, flags)
      }
    }
  }

  private group(flags: Flags): RegexNode | undefined {
    this.pos++ // (
    if (this.peek() === '?') {
      const rest = this.src.slice(this.pos + 1)
      if (/^(=|!|<=|<!)/.test(rest)) this.fail('lookaround is not supported')
      if (rest.startsWith('P=') || rest.startsWith('P>')) this.fail('backreferences are not supported')
      const named = /^P?<([A-Za-z0-9_]+)>/.exec(rest)
      if (named) {
        this.pos += 1 + named[0].length
        return this.groupBody({ ...flags })
      }
      if (rest.startsWith(':')) {
        this.pos += 2
        return this.groupBody({ ...flags })
      }
      const flagGroup = /^([imsU]*)(?:-([imsU]*))?([:)])/.exec(rest)
      if (!flagGroup || (flagGroup[1] === '' && (flagGroup[2] ?? '') === ''))
        this.fail('invalid or unsupported Perl syntax')
      const [whole, on = '', off = '', end] = flagGroup
      if (flagGroup[2] !== undefined && off === '') this.fail('invalid or unsupported Perl syntax')
      this.pos += 1 + whole.length
      const target = end === ')' ? flags : { ...flags }
      for (const f of on) if (f !== 'U') target[f as keyof Flags] = true
      for (const f of off) if (f !== 'U') target[f as keyof Flags] = false
      return end === ')' ? undefined : this.groupBody(target)
    }
    return this.groupBody({ ...flags })
  }

  private groupBody(flags: Flags): RegexNode {
    const node = this.alternation(flags)
    if (this.peek() !== ')') this.fail('missing closing )')
    this.pos++
    return node
  }

  private escape(flags: Flags): RegexNode {
    const c = this.src[this.pos + 1]
    if (c === undefined) this.fail('trailing backslash at end of expression')
    switch (c) {
      case 'A':
        this.pos += 2
        return { kind: 'assert', assert: 'beginText' }
      case 'z':
        this.pos += 2
        return { kind: 'assert', assert: 'endText' }
      case 'b':
        this.pos += 2
        return { kind: 'assert', assert: 'wordBoundary' }
      case 'B':
        this.pos += 2
        return { kind: 'assert', assert: 'notWordBoundary' }
      case 'Q': {
        const end = this.src.indexOf('\\E', this.pos + 2)
        const text = this.src.slice(this.pos + 2, end === -1 ? undefined : end)
        this.pos = end === -1 ? this.src.length : end + 2
        const items = Array.from(text, (ch) => literal(ch.codePointAt(0)!, flags))
        return items.length === 1 ? items[0]! : { kind: 'concat', items }
      }
      case 'C':
        this.pos += 2
        return { kind: 'char', test: () => true }
    }
    const set = emptySet()
    const single = this.escapeInto(set, false)
    if (single !== undefined) return literal(single, flags)
    return { kind: 'char', test: compileCharSet(set, false, flags.i) }
  }

  /**
   * Reads an escape at the cursor (which is on the backslash). A class escape (`\d`, `\pL`) is
   * added to `set` and `undefined` returned; a single character is returned as its code point.
   */
  private escapeInto(set: CharSet, inClass: boolean): number | undefined {
    const c = this.src[this.pos + 1]!
    this.pos += 2
    const perl = perlClass(c)
    if (perl) {
      set.ranges.push(...perl)
      return undefined
    }
    if (c === 'p' || c === 'P') {
      let name: string
      if (this.peek() === '{') {
        const end = this.src.indexOf('}', this.pos)
        if (end === -1) this.fail('invalid character class range')
        name = this.src.slice(this.pos + 1, end)
        this.pos = end + 1
      } else {
        name = this.src[this.pos] ?? this.fail('invalid character class range')
        this.pos++
      }
      const test = unicodeClass(name, c === 'P')
      if (!test) this.fail('invalid character class range')
      set.tests.push(test)
      return undefined
    }
    if (c in ESCAPED_CONTROL) return ESCAPED_CONTROL[c]
    if (c === 'x') {
      const braced = /^\{([0-9A-Fa-f]{1,6})\}/.exec(this.src.slice(this.pos))
      const plain = /^[0-9A-Fa-f]{2}/.exec(this.src.slice(this.pos))
      const digits = braced?.[1] ?? plain?.[0]
      if (digits === undefined) this.fail('invalid escape sequence')
      this.pos += (braced ?? plain)![0].length
      const cp = parseInt(digits, 16)
      if (cp > 0x10ffff) this.fail('invalid escape sequence')
      return cp
    }
    if (c >= '0' && c <= '7') {
      // RE2: \0, \012 are octal; a lone \1-\9 is a backreference, which RE2 does not support.
      const octal = /^[0-7]{0,2}/.exec(this.src.slice(this.pos))![0]
      if (c !== '0' && octal === '') this.fail('backreferences are not supported')
      this.pos += octal.length
      return parseInt(c + octal, 8)
    }
    if (c === '8' || c === '9') this.fail('backreferences are not supported')
    if (!inClass && c === 'k') this.fail('backreferences are not supported')
    if (/[\p{L}\p{N}_]/u.test(c)) this.fail('invalid escape sequence')
    return c.codePointAt(0)
  }

  private charClass(flags: Flags): RegexNode {
    this.pos++ // [
    let negated = false
    if (this.peek() === '^') {
      negated = true
      this.pos++
    }
    const set = emptySet()
    let first = true
    for (;;) {
      const c = this.peek()
      if (c === undefined) this.fail('missing closing ]')
      if (c === ']' && !first) {
        this.pos++
        break
      }
      first = false
      if (c === '[' && this.peek(1) === ':') {
        const end = this.src.indexOf(':]', this.pos + 2)
        const posix = end === -1 ? undefined : posixClass(this.src.slice(this.pos + 2, end))
        if (posix) {
          set.ranges.push(...posix)
          this.pos = end + 2
          continue
        }
      }
      const low = this.classChar(set)
      if (low === undefined) continue
      if (this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== undefined) {
        this.pos++
        const high = this.classChar(set)
        if (high === undefined || high < low) this.fail('invalid character class range')
        set.ranges.push(low, high)
      } else {
        set.ranges.push(low, low)
      }
    }
    return { kind: 'char', test: compileCharSet(set, negated, flags.i) }
  }

  private classChar(set: CharSet): number | undefined {
    if (this.peek() === '\\') {
      if (this.peek(1) === undefined) this.fail('missing closing ]')
      return this.escapeInto(set, true)
    }
    const cp = this.src.codePointAt(this.pos)!
    this.pos += cp > 0xffff ? 2 : 1
    return cp
  }
}

function literal(cp: number, flags: Flags): RegexNode {
  const variants = flags.i ? caseVariants(cp) : []
  if (variants.length === 0) return { kind: 'char', test: (c) => c === cp }
  const [a, b] = [variants[0]!, variants[1] ?? variants[0]!]
  return { kind: 'char', test: (c) => c === cp || c === a || c === b }
}
