// Hostile values for the parts of a request the route table does not shape: methods, path
// parameters, query strings and headers. Numbers come from fixed pools and a small range, never
// all of int4, so that no generated id reaches the fixtures' (fuzz-world.ts).
import fc from 'fast-check'

/** Methods: the table's, HEAD and OPTIONS, WebDAV and other registered ones, and one Node refuses. */
export const OTHER_METHODS = [
  'GET',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'HEAD',
  'OPTIONS',
  'TRACE',
  'PROPFIND',
  'PURGE',
  'MKCOL',
  'LINK',
  'SEARCH',
  'REPORT',
  'M-SEARCH',
  'LOCK',
  'FOO',
]

/** Numbers as text: out of range for int4, bigint, Number and Date, or not numbers at all. */
export const ODD_NUMBERS = [
  '0',
  '-1',
  '-0',
  '1.5',
  '1e3',
  '1e309',
  '-1e309',
  'NaN',
  'Infinity',
  '2147483647',
  '2147483648',
  '9007199254740993',
  '99999999999999999999',
  '0x10',
  '00001',
  ' 1',
  '1 ',
  '١٢٣',
]
/** Dates as text: impossible, out of the range PostgreSQL or Date hold, or odd spellings. */
export const ODD_DATES = [
  '2026-13-45',
  '9999-99-99',
  '2024-02-30',
  '+275760-09-13',
  '+275760-09-13T00:00:00.001Z',
  '-271821-04-20',
  '0000-01-01',
  '1969-12-31',
  '1970-01-01',
  '9999-12-31',
  '10000-01-01',
  '2024-01-01T25:61:61Z',
  'IS:2024-01-01',
  'IS:',
  'IS:9999-99-99',
  '2024-01-01T00:00:00+99:99',
  '-8640000000000000',
  '8640000000000001',
  'today',
  '',
]
/** Texts that trouble code treating input as a plain value, path or identifier. */
export const ODD_TEXTS = [
  '',
  ' ',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'a/b',
  'a?b',
  'a#b',
  'a;b',
  '*',
  '*:*.abc',
  '日本語',
  '😀',
  'ǅ',
  'İ',
  '<script>',
  "' OR 1=1 --",
  '%',
  '%25',
  '..',
  '.',
  'default',
  'development',
  'production',
  'simple',
]

const ascii = fc.constantFrom(..."abcxyz019-._~!$&'()*+,;=:@".split(''))
const word = fc.string({
  unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-_'.split('')),
  minLength: 1,
  maxLength: 12,
})
/** Small numbers, where ids of the playground and of things the fuzz made may be guessed at. */
const smallNumber = fc.integer({ min: -10, max: 10_000 }).map(String)

/** A text value before encoding (unicode, control characters, lone surrogates allowed). */
export const oddText: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...ODD_NUMBERS, ...ODD_DATES, ...ODD_TEXTS) },
  { weight: 2, arbitrary: smallNumber },
  { weight: 2, arbitrary: word },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  { weight: 1, arbitrary: fc.constantFrom('\u0000', 'a\u0000b', '\ud800', 'a\udfffb', '\u202e', '\ufeff', '\r\n') },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('a', '日', '%', '.'), fc.integer({ min: 200, max: 2_000 }))
      .map(([c, n]) => c.repeat(n)),
  },
)

/**
 * `length` letters and digits drawn by xorshift from `seed`: a long text PostgreSQL cannot compress
 * below its index limits (a repeated one it can), made in a loop, not char by char by fast-check.
 */
export function incompressible(seed: number, length: number): string {
  let x = seed | 1
  let text = ''
  for (let i = 0; i < length; i++) {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    text += 'abcdefghijklmnopqrstuvwxyz0123456789'[(x >>> 0) % 36]
  }
  return text
}

/** Percent-encodes `text`; a lone surrogate becomes its (invalid) three-byte UTF-8 escape, which encodeURIComponent refuses. */
export function encode(text: string): string {
  try {
    return encodeURIComponent(text)
  } catch {
    return [...text]
      .map((c) => (/^[\ud800-\udfff]$/.test(c) ? loneSurrogate(c.charCodeAt(0)) : encodeURIComponent(c)))
      .join('')
  }
}

function loneSurrogate(unit: number): string {
  return [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
    .map((byte) => `%${byte.toString(16).toUpperCase()}`)
    .join('')
}

/** A path parameter on the wire: encoded (it reaches the handler) or raw and broken (the edge refuses it). */
export const wireParam: fc.Arbitrary<string> = fc.oneof(
  { weight: 8, arbitrary: oddText.map(encode) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '%',
      '%00',
      '%zz',
      '%2e%2e',
      '%2E',
      '..',
      '.',
      '%2F',
      '%5C',
      '%3F',
      '%23',
      '%ED%A0%80',
      '%C0%AF',
      '%FF',
      '%u0041',
      ';',
      '~',
      '%20',
      '+',
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: ascii, minLength: 1, maxLength: 20 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 6_000 }).map((n) => 'a'.repeat(n)) },
)

const queryKey = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      'from',
      'to',
      'limit',
      'offset',
      'hoursBack',
      'project',
      'tag',
      'namePrefix',
      'feature',
      'environment',
      'type',
      'shouldActivateDisabledStrategies',
      'from[]',
      'to[0]',
      'limit[]',
      'project[]',
      'tag[]',
      '__proto__',
      '__proto__[from]',
      'constructor',
      'constructor[prototype][limit]',
      'toString',
      'hasOwnProperty',
      'a[b][c][d]',
      '',
      '%zz',
      '%00',
    ),
  },
  { weight: 1, arbitrary: word },
)
const queryValue = fc.oneof(
  { weight: 4, arbitrary: oddText.map(encode) },
  { weight: 3, arbitrary: fc.constantFrom(...ODD_DATES, ...ODD_NUMBERS).map(encode) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '%',
      '%zz',
      '%00',
      '%ED%A0%80',
      'a=b',
      '&',
      'x:y',
      ':',
      'pg-tags:pg-value',
      'pg-env',
      'development',
    ),
  },
  { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 4_000 }).map((n) => 'x'.repeat(n)) },
)

/** A query string without the `?`: often empty, else odd pairs, repeated keys or a long list. */
export const queryString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constant('') },
  {
    weight: 6,
    arbitrary: fc
      .array(fc.tuple(queryKey, queryValue), { minLength: 1, maxLength: 8 })
      .map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&')),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(queryKey, fc.integer({ min: 50, max: 500 }))
      .map(([key, n]) => Array.from({ length: n }, (_, i) => `${key}=${i}`).join('&')),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom('&&&', '=', '==', 'a', '?', '#x', 'a=1&a=2&a[]=3', 'from=2024-01-01&from=2024-01-02'),
  },
)

/** Host headers: the right one, or malformed (`undefined` sends none). */
export const host = (port: number): fc.Arbitrary<string | undefined> =>
  fc.oneof(
    { weight: 8, arbitrary: fc.constant(`127.0.0.1:${port}`) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        'a b',
        '%',
        '[',
        '[::1',
        '[::1]:80',
        'a@b:c',
        '',
        'localhost:99999',
        'localhost:-1',
        'evil.example',
        'x'.repeat(3_000),
        '127.0.0.1:abc',
        undefined,
      ),
    },
  )

export const contentType: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(undefined, 'application/json', 'application/json; charset=utf-8') },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=fz',
      'multipart/form-data',
      'application/json; charset=latin1',
      'application/json; charset="KLINGON"',
      'application/json; charset=utf-16le',
      'application/json;charset=',
      'APPLICATION/JSON',
      'application/vnd.api+json',
      'application/merge-patch+json',
      '*/*',
      '',
      ';;;',
      'application/octet-stream',
      'text/html',
    ),
  },
)

/** Other headers: mostly none, else a few odd ones (a huge one stays within Node's 16 KiB header limit). */
const oddHeaders = fc.record(
  {
    'if-none-match': fc.constantFrom('*', '"x"', 'W/"x"', ',,,', '"', 'x'.repeat(2_000)),
    'x-forwarded-for': fc.constantFrom('203.0.113.9', '::1', 'not-an-ip', ', , ,', '999.1.1.1, 1.2.3', '[::1]:80'),
    'x-forwarded-host': fc.constantFrom('evil.example', 'a b', '%', '['),
    'x-forwarded-proto': fc.constantFrom('https', 'gopher', '', 'https, http'),
    accept: fc.constantFrom('application/json', 'text/html', '*/*;q=abc', ''),
    'accept-encoding': fc.constantFrom('gzip', 'br', 'identity;q=0', 'x'),
    'content-encoding': fc.constantFrom('gzip', 'deflate', 'br', 'x-unknown', ''),
    origin: fc.constantFrom('http://evil.example', 'null', ''),
    'x-fuzz-pad': fc.integer({ min: 1_000, max: 8_000 }).map((n) => 'p'.repeat(n)),
  },
  { requiredKeys: [] },
)
export const extraHeaders: fc.Arbitrary<Record<string, string>> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({}) },
  { weight: 1, arbitrary: oddHeaders },
)
