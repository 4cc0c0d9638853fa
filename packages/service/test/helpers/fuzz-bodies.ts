// Request bodies: a route's shape (fuzz-shapes.ts) mutated (a field given a hostile value of its
// type or any other, removed, wrapped, a prototype key added) and put on the wire as JSON, form,
// multipart or cut short; or no body, or one that is not JSON at all. What JSON.stringify can not
// write (1e309, nesting 30 000 deep) travels as `«raw:base64»` markers until `bodyBytes`.
import fc from 'fast-check'
import type { Playground } from './fuzz-playground.js'
import { encode, incompressible, ODD_DATES, ODD_NUMBERS, ODD_TEXTS, oddText } from './fuzz-values.js'

/** A body before it is put on the wire. */
export type BodySpec =
  | { kind: 'none' }
  | { kind: 'shaped'; value: unknown; as: 'json' | 'form' | 'multipart' | 'cut' | 'padded'; cut: number }
  | { kind: 'text'; text: string }
  | { kind: 'bytes'; bytes: number[] }

/** What JSON.stringify can not write, as markers `bodyBytes` replaces in the text. */
const RAW = [
  '1e309',
  '-1e309',
  '99999999999999999999',
  '1e-400',
  '-0.0',
  '1E2',
  'NaN',
  '0x10',
  '01',
  'undefined',
  '[1,]',
  '"\\ud800"',
  '"\\udfff\\ud800"',
  '"\\u0000"',
]
const raw = (text: string) => `«raw:${Buffer.from(text).toString('base64')}»`
const deep = fc
  .tuple(fc.constantFrom('[', '{"a":'), fc.integer({ min: 50, max: 30_000 }))
  .map(([open, n]) => raw(open === '[' ? `${'['.repeat(n)}${']'.repeat(n)}` : `${open.repeat(n)}1${'}'.repeat(n)}`))

/** Keys that trouble code treating a parsed object as a plain value. */
const HOSTILE_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'toJSON',
  'hasOwnProperty',
  'then',
  'length',
  '',
  '\u0000',
  'a.b',
  '0',
]

const oddNumber = fc.oneof(
  fc.constantFrom(
    0,
    -1,
    -0,
    1.5,
    2 ** 31,
    2 ** 31 - 1,
    -(2 ** 31) - 1,
    2 ** 53 + 1,
    -8_640_000_000_000_000,
    8_640_000_000_000_001,
    1e308,
    -1e308,
    5e-324,
  ),
  fc.integer({ min: -10, max: 10_000 }),
)
const oddString = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...ODD_TEXTS, ...ODD_DATES, ...ODD_NUMBERS, '2099-01-01T00:00:00Z') },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '\u0000',
      'a\u0000b',
      '\ud800',
      'a\udfffb',
      '\udc00\ud800',
      '😀',
      '\u202e',
      'a'.repeat(101),
      'a'.repeat(256),
    ),
  },
  { weight: 2, arbitrary: oddText },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('x', '日', '\u0000'), fc.integer({ min: 1_000, max: 60_000 }))
      .map(([c, n]) => c.repeat(n)),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.integer(), fc.integer({ min: 3_000, max: 6_000 }))
      .map(([seed, length]) => incompressible(seed, length)),
  },
)

/** Hostile JSON values: odd numbers and dates, control characters, huge texts, deep nesting, prototype keys. */
export const oddJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(null, true, false),
    oddNumber,
    oddString,
    fc.constantFrom(...RAW).map(raw),
    deep,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.array(fc.tuple(fc.constantFrom(...HOSTILE_KEYS), tie('value')), { maxLength: 3 }).map(objectOf),
  ),
})).value

interface Mutation {
  at: number
  /**
   * `like`: a value of the same JSON type (it passes type checks and reaches the database); `every`:
   * the same for every leaf of that type (a text field without a length limit shows); `set`: any value.
   */
  op: 'like' | 'every' | 'set' | 'delete' | 'addKey' | 'wrap'
  key: string
  value: unknown
  string: string
  number: number
}

const mutation: fc.Arbitrary<Mutation> = fc.record({
  at: fc.nat(),
  op: fc.oneof(
    { weight: 4, arbitrary: fc.constant('like' as const) },
    { weight: 2, arbitrary: fc.constantFrom('every' as const, 'set' as const) },
    { weight: 1, arbitrary: fc.constantFrom('delete' as const, 'addKey' as const, 'wrap' as const) },
  ),
  key: fc.oneof(fc.constantFrom(...HOSTILE_KEYS), fc.constantFrom('name', 'id', 'extra', 'expiresAt', 'project')),
  value: oddJson,
  string: oddString,
  number: oddNumber,
})

/** A body for a route with these shapes: mostly a mutated shape, sometimes none or not JSON at all. */
export function bodyFor(shapes: unknown[]): fc.Arbitrary<BodySpec> {
  const as = fc.oneof(
    { weight: 8, arbitrary: fc.constant('json' as const) },
    { weight: 3, arbitrary: fc.constantFrom('form' as const, 'multipart' as const, 'cut' as const, 'padded' as const) },
  )
  const shaped = fc
    .record({
      shape: fc.constantFrom(...shapes),
      mutations: fc.array(mutation, { minLength: 1, maxLength: 3 }),
      as,
      cut: fc.nat(),
    })
    .map(
      ({ shape, mutations, as, cut }): BodySpec => ({
        kind: 'shaped',
        value: mutations.reduce(mutate, structuredClone(shape)),
        as,
        cut,
      }),
    )
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant<BodySpec>({ kind: 'none' }) },
    { weight: 10, arbitrary: shaped },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(
          '',
          'not json',
          '{',
          '}',
          'null',
          '""',
          '[]',
          '{"a":1}{"b":2}',
          '\ufeff{}',
          '{"__proto__":{"isAdmin":true}}',
          '{"constructor":{"prototype":{"x":1}}}',
          'a=1&b[]=2&__proto__[x]=1',
        )
        .map((text): BodySpec => ({ kind: 'text', text })),
    },
    {
      weight: 1,
      arbitrary: fc.array(fc.nat(255), { maxLength: 64 }).map((bytes): BodySpec => ({ kind: 'bytes', bytes })),
    },
  )
}

/** Bytes of a body at most: small, so thousands of requests fit in the run (bodies over the 1 MiB limit, chunked too, are hostile-input.test.ts's). */
const MAX_BODY = 190_000

/** The bytes of the n-th request's `body`, markers resolved against the playground, cut at MAX_BODY. */
export function bodyBytes(body: BodySpec, pgValues: Playground, n: number): Buffer | undefined {
  if (body.kind === 'none') return undefined
  if (body.kind === 'bytes') return Buffer.from(body.bytes)
  if (body.kind === 'text') return Buffer.from(body.text)
  const json = resolveMarkers(JSON.stringify(body.value) ?? '', pgValues, n)
  const text =
    body.as === 'form'
      ? formOf(body.value, pgValues, n, MAX_BODY)
      : body.as === 'multipart'
        ? multipartOf(json)
        : body.as === 'cut'
          ? json.slice(0, body.cut % (json.length + 1))
          : body.as === 'padded'
            ? json + ' '.repeat(body.cut % 90_000)
            : json
  const bytes = Buffer.from(text)
  return bytes.length > MAX_BODY ? bytes.subarray(0, MAX_BODY) : bytes
}

// --- Internal helpers ---

/** An object with these own keys, `__proto__` included (an object literal would set the prototype). */
function objectOf(entries: [string, unknown][]): Record<string, unknown> {
  const object: Record<string, unknown> = {}
  for (const [key, value] of entries) define(object, key, value)
  return object
}

/** Every place in `value`, as key paths (the root is `[]`). */
function placesIn(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  const places = [at]
  if (value !== null && typeof value === 'object')
    for (const [key, child] of Object.entries(value))
      places.push(...placesIn(child, [...at, Array.isArray(value) ? Number(key) : key]))
  return places
}

function mutate(value: unknown, { at, op, key, value: odd, string, number }: Mutation): unknown {
  const places = placesIn(value)
  const place = places[at % places.length] as (string | number)[]
  const like = (node: unknown): unknown =>
    typeof node === 'string' ? string : typeof node === 'number' ? number : typeof node === 'boolean' ? !node : node
  if (op === 'every') {
    const picked = valueAt(value, place)
    return everyLeaf(value, picked !== null && typeof picked !== 'object' ? typeof picked : 'string', like)
  }
  const replace = (node: unknown): unknown => {
    if (op === 'like') return like(node)
    if (op === 'set') return odd
    if (op === 'wrap') return [node]
    if (op === 'addKey' && node !== null && typeof node === 'object')
      return Array.isArray(node) ? [...node, odd] : objectOf([...Object.entries(node), [key, odd]])
    return node
  }
  if (place.length === 0) return op === 'delete' ? undefined : replace(value)
  const parent = valueAt(value, place.slice(0, -1)) as any
  const last = place[place.length - 1] as string | number
  if (op === 'delete') {
    if (Array.isArray(parent)) parent.splice(Number(last), 1)
    else delete parent[last]
  } else {
    define(parent, last, replace(parent[last]))
  }
  return value
}

/** `node` with every leaf of JSON type `kind` replaced by `like(leaf)`. */
function everyLeaf(node: unknown, kind: string, like: (leaf: unknown) => unknown): unknown {
  if (node === null || typeof node !== 'object') return typeof node === kind ? like(node) : node
  for (const [key, child] of Object.entries(node)) define(node, key, everyLeaf(child, kind, like))
  return node
}

/** Sets an own property, `__proto__` included. */
function define(object: object, key: string | number, value: unknown): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true })
}

function valueAt(value: unknown, place: (string | number)[]): unknown {
  return place.reduce<any>((node, key) => node?.[key], value)
}

function resolveMarkers(json: string, pgValues: Playground, n: number): string {
  return json
    .replaceAll('«n»', String(n))
    .replace(/"«pg:(\w+)»"/g, (_, field: keyof Playground) => JSON.stringify(pgValues[field]))
    .replace(/"«raw:([A-Za-z0-9+/=]*)»"/g, (_, base64: string) => Buffer.from(base64, 'base64').toString())
}

/** The fields as `application/x-www-form-urlencoded`, nested ones in bracket form (`a[b][0]=c`), up to `max` characters. */
function formOf(value: unknown, pgValues: Playground, n: number, max: number): string {
  const pairs: string[] = []
  let length = 0
  const walk = (node: unknown, key: string) => {
    if (length > max) return
    if (node !== null && typeof node === 'object')
      for (const [k, child] of Object.entries(node)) walk(child, key ? `${key}[${k}]` : k)
    else {
      const pair = `${encode(key)}=${encode(resolveMarkers(JSON.stringify(String(node)), pgValues, n).replace(/^"|"$/g, ''))}`
      pairs.push(pair)
      length += pair.length + 1
    }
  }
  walk(value, '')
  return pairs.join('&')
}

function multipartOf(json: string): string {
  return `--fz\r\nContent-Disposition: form-data; name="body"\r\nContent-Type: application/json\r\n\r\n${json}\r\n--fz--\r\n`
}
