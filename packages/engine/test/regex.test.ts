import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createEngine } from '@vexil/engine'
import { compileRegex } from '../src/regex/nfa.js'

const regexFlag = (value: string, caseInsensitive = false) => ({
  features: [
    {
      name: 'r',
      enabled: true,
      strategies: [
        { name: 'default', constraints: [{ contextName: 'text', operator: 'REGEX', value, caseInsensitive }] },
      ],
    },
  ],
})

describe('REGEX constraint', () => {
  it('cannot hang: (a+)+$ against a 50 KB hostile value returns within a second (backtracking would take years)', () => {
    const engine = createEngine()
    engine.load(regexFlag('(a+)+$'))
    const hostile = `${'a'.repeat(50_000)}!`
    const started = performance.now()
    expect(engine.isEnabled('r', { properties: { text: hostile } })).toBe(false)
    expect(performance.now() - started).toBeLessThan(1_000)
    expect(engine.isEnabled('r', { properties: { text: 'aaaa' } })).toBe(true)
  })

  it.each([
    ['(a|aa)*b', `${'a'.repeat(50_000)}c`],
    ['(.*a){20}', 'a'.repeat(50_000)],
    ['^(\\w+\\s?)*$', `${'word '.repeat(10_000)}!`],
  ])('other catastrophic-backtracking patterns stay linear: %s', (pattern, input) => {
    const matches = compileRegex(pattern)
    const started = performance.now()
    matches(input)
    expect(performance.now() - started).toBeLessThan(500)
  })

  it.each([
    ['(?=a)a', 'lookahead'],
    ['(?!a)b', 'negative lookahead'],
    ['(?<=a)b', 'lookbehind'],
    ['(?<!a)b', 'negative lookbehind'],
    ['^(a)\\1$', 'backreference'],
    ['(?P<x>a)(?P=x)', 'named backreference'],
    ['a**', 'double repetition'],
    ['a{1001}', 'repeat over 1000'],
    ['(a', 'unclosed group'],
    ['[a', 'unclosed class'],
    ['\\Z', 'unsupported escape'],
    ['*a', 'nothing to repeat'],
  ])('RE2 rejects %s (%s): the constraint is false, and true when inverted', (pattern) => {
    expect(() => compileRegex(pattern)).toThrow()
    const engine = createEngine()
    engine.load(regexFlag(pattern))
    expect(engine.isEnabled('r', { properties: { text: 'aab' } })).toBe(false)
  })

  it.each([
    ['^(?i)abc$', 'ABC', true],
    ['(?i:a)b', 'Ab', true],
    ['(?i:a)b', 'AB', false],
    ['(?m)^foo$', 'bar\nfoo\nbaz', true],
    ['^foo$', 'bar\nfoo', false],
    ['(?s)^a.b$', 'a\nb', true],
    ['^a.b$', 'a\nb', false],
    ['^[[:alpha:]]+$', 'abcXYZ', true],
    ['^[[:^digit:]]+$', 'abc1', false],
    ['^\\pL+$', 'héllo', true],
    ['^\\p{Greek}+$', 'αβγ', true],
    ['^\\PL+$', '123', true],
    ['\\Qa.b\\E', 'xa.by', true],
    ['\\Qa.b\\E', 'axb', false],
    ['^\\x41\\x{42}$', 'AB', true],
    ['^\\d+$', '٣', false],
    ['\\bfoo\\b', 'a foo b', true],
    ['\\bfoo\\b', 'afoob', false],
    ['\\Aab\\z', 'ab', true],
    ['^.$', '😀', true],
    ['a{2,3}', 'xaax', true],
    ['^a{2,3}$', 'aaaa', false],
    ['x{', 'x{', true],
    ['(?P<name>ab)+', 'abab', true],
    ['(?<name>ab)+', 'abab', true],
    ['[]a]', ']', true],
    ['^[a-]+$', 'a-a', true],
    ['\\012', '\n', true],
  ])('RE2 semantics: %s on %j is %s', (pattern, input, expected) => {
    expect(compileRegex(pattern)(input)).toBe(expected)
  })

  it('agrees with JS RegExp on patterns both engines read the same way', () => {
    const atom = fc.constantFrom('a', 'b', '.', '[ab]', '[^a]', '\\d', '\\w', '\\s', 'x')
    const pattern = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        atom,
        fc.tuple(tie('node'), tie('node')).map(([a, b]) => `${a}${b}`),
        fc.tuple(tie('node'), tie('node')).map(([a, b]) => `(?:${a}|${b})`),
        fc.tuple(tie('node'), fc.constantFrom('*', '+', '?', '{1,2}', '{2}')).map(([a, q]) => `(?:${a})${q}`),
        fc.tuple(fc.constantFrom('^', ''), tie('node'), fc.constantFrom('$', '')).map(([s, a, e]) => `${s}${a}${e}`),
      ),
    })).node
    fc.assert(
      fc.property(
        pattern,
        fc.string({ unit: fc.constantFrom('a', 'b', 'x', '1', ' ', '\n'), maxLength: 12 }),
        fc.boolean(),
        (source, input, ci) => {
          const expected = new RegExp(source, ci ? 'i' : '').test(input)
          expect(compileRegex(ci ? `(?i)${source}` : source)(input)).toBe(expected)
        },
      ),
      { numRuns: 3000 },
    )
  })
})
