// Character sets for the RE2 matcher: code-point ranges plus optional Unicode-property tests.
// RE2's Perl classes (\d \w \s), POSIX classes and \b are ASCII-only (RE2 syntax docs).

export type CharTest = (codePoint: number) => boolean

export interface CharSet {
  /** Flat list of inclusive [low, high] pairs. */
  ranges: number[]
  /** Tests that cannot be written as ranges (Unicode properties); each may be negated. */
  tests: CharTest[]
}

export const emptySet = (): CharSet => ({ ranges: [], tests: [] })

const PERL: Record<string, number[]> = {
  d: [0x30, 0x39],
  s: [0x09, 0x0a, 0x0c, 0x0d, 0x20, 0x20],
  w: [0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a],
}

const POSIX: Record<string, number[]> = {
  alnum: [0x30, 0x39, 0x41, 0x5a, 0x61, 0x7a],
  alpha: [0x41, 0x5a, 0x61, 0x7a],
  ascii: [0x00, 0x7f],
  blank: [0x09, 0x09, 0x20, 0x20],
  cntrl: [0x00, 0x1f, 0x7f, 0x7f],
  digit: [0x30, 0x39],
  graph: [0x21, 0x7e],
  lower: [0x61, 0x7a],
  print: [0x20, 0x7e],
  punct: [0x21, 0x2f, 0x3a, 0x40, 0x5b, 0x60, 0x7b, 0x7e],
  space: [0x09, 0x0d, 0x20, 0x20],
  upper: [0x41, 0x5a],
  word: [0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a],
  xdigit: [0x30, 0x39, 0x41, 0x46, 0x61, 0x66],
}

const MAX_CODE_POINT = 0x10ffff

/** The complement of a list of ranges over all code points. */
function negateRanges(ranges: number[]): number[] {
  const pairs: Array<[number, number]> = []
  for (let i = 0; i < ranges.length; i += 2) pairs.push([ranges[i]!, ranges[i + 1]!])
  pairs.sort((a, b) => a[0] - b[0])
  const out: number[] = []
  let next = 0
  for (const [low, high] of pairs) {
    if (low > next) out.push(next, low - 1)
    if (high + 1 > next) next = high + 1
  }
  if (next <= MAX_CODE_POINT) out.push(next, MAX_CODE_POINT)
  return out
}

export function perlClass(letter: string): number[] | undefined {
  const lower = letter.toLowerCase()
  const ranges = PERL[lower]
  if (!ranges) return undefined
  return letter === lower ? ranges : negateRanges(ranges)
}

export function posixClass(name: string): number[] | undefined {
  const negated = name.startsWith('^')
  const ranges = POSIX[negated ? name.slice(1) : name]
  if (!ranges) return undefined
  return negated ? negateRanges(ranges) : ranges
}

/**
 * `\pL`, `\p{Greek}`, `\p{^Lu}`: delegated to the host's Unicode tables through a one-character
 * RegExp with the `u` flag, tried as a general category, then as a script.
 */
export function unicodeClass(name: string, negated: boolean): CharTest | undefined {
  if (name.startsWith('^')) {
    name = name.slice(1)
    negated = !negated
  }
  if (name === 'Any') return negated ? () => false : () => true
  let pattern: RegExp | undefined
  for (const source of [`\\p{${name}}`, `\\p{Script=${name}}`]) {
    try {
      pattern = new RegExp(`^${source}$`, 'u')
      break
    } catch {
      // not this kind of property; try the next
    }
  }
  if (!pattern) return undefined
  const re = pattern
  return negated ? (cp) => !re.test(String.fromCodePoint(cp)) : (cp) => re.test(String.fromCodePoint(cp))
}

/** Other-case forms of a code point (simple case mapping), used under the `i` flag. */
export function caseVariants(cp: number): number[] {
  if (cp < 0x80) {
    if (cp >= 0x41 && cp <= 0x5a) return [cp + 32]
    if (cp >= 0x61 && cp <= 0x7a) return [cp - 32]
    return []
  }
  const text = String.fromCodePoint(cp)
  const out: number[] = []
  for (const other of [text.toLowerCase(), text.toUpperCase()]) {
    const code = other.codePointAt(0)
    if (
      code !== undefined &&
      code !== cp &&
      other.length === String.fromCodePoint(code).length &&
      !out.includes(code)
    ) {
      out.push(code)
    }
  }
  return out
}

/** Compiles a set into one test; `caseInsensitive` also accepts the other case of the input. */
export function compileCharSet(set: CharSet, negated: boolean, caseInsensitive: boolean): CharTest {
  const ranges = set.ranges.slice()
  const tests = set.tests.slice()
  const inSet = (cp: number): boolean => {
    for (let i = 0; i < ranges.length; i += 2) {
      if (cp >= ranges[i]! && cp <= ranges[i + 1]!) return true
    }
    for (const test of tests) if (test(cp)) return true
    return false
  }
  const folded: CharTest = caseInsensitive
    ? (cp) => {
        if (inSet(cp)) return true
        for (const other of caseVariants(cp)) if (inSet(other)) return true
        return false
      }
    : inSet
  return negated ? (cp) => !folded(cp) : folded
}
