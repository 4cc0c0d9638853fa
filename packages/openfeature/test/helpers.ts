// What the provider tests share: an upstream answered in memory (no socket) for the unit-ish
// tests, a logger that records, and a payload with one flag of each kind.
import type { Logger } from '@openfeature/server-sdk'
import type { FetchFunction } from '../src/options.js'

export interface Call {
  url: string
  method: string
  headers: Record<string, string>
  body: unknown
}

/** A `fetch` answering `GET /client/features` with `payload` and 202 to the rest; records every call. */
export function inMemoryFetch(payload: unknown): FetchFunction & { calls: Call[] } {
  const calls: Call[] = []
  const fetch = async (url: string, init: RequestInit): Promise<Response> => {
    const headers = Object.fromEntries(
      Object.entries((init.headers ?? {}) as Record<string, string>).map(([name, value]) => [
        name.toLowerCase(),
        value,
      ]),
    )
    calls.push({
      url,
      method: init.method ?? 'GET',
      headers,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
    })
    if (url.endsWith('/client/features'))
      return new Response(JSON.stringify(payload), {
        status: 200,
        headers: { 'content-type': 'application/json', etag: '"1"' },
      })
    if (url.endsWith('/client/streaming')) return new Response(null, { status: 404 })
    return new Response(null, { status: 202 })
  }
  return Object.assign(fetch, { calls })
}

export function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = []
  const record =
    (level: string) =>
    (...args: unknown[]) =>
      void lines.push(`${level}: ${args.map(String).join(' ')}`)
  return { lines, error: record('error'), warn: record('warn'), info: record('info'), debug: record('debug') }
}

const DEFAULT = { name: 'default', parameters: {} }
const variant = (name: string, payload?: { type: string; value: string }) => ({
  name,
  weight: 1000,
  weightType: 'variable',
  stickiness: 'default',
  ...(payload ? { payload } : {}),
})

/** One flag of each kind the README's table names. */
export const KINDS_PAYLOAD = {
  version: 2,
  features: [
    { name: 'bool-on', enabled: true, strategies: [DEFAULT] },
    { name: 'bool-off', enabled: false, strategies: [DEFAULT] },
    {
      name: 'bool-users',
      enabled: true,
      impressionData: true,
      strategies: [{ name: 'userWithId', parameters: { userIds: 'u1,u2' } }],
    },
    {
      name: 'bool-tenant',
      enabled: true,
      strategies: [{ ...DEFAULT, constraints: [{ contextName: 'tenant', operator: 'IN', values: ['acme'] }] }],
    },
    {
      name: 'string',
      enabled: true,
      strategies: [DEFAULT],
      variants: [variant('blue', { type: 'string', value: 'navy' })],
    },
    {
      name: 'number',
      enabled: true,
      strategies: [DEFAULT],
      variants: [variant('answer', { type: 'number', value: '42' })],
    },
    {
      name: 'object',
      enabled: true,
      strategies: [DEFAULT],
      variants: [variant('layout', { type: 'json', value: '{"columns":3,"dense":true}' })],
    },
    { name: 'named', enabled: true, strategies: [DEFAULT], variants: [variant('just-a-name')] },
    {
      name: 'typed-off',
      enabled: false,
      strategies: [DEFAULT],
      variants: [variant('blue', { type: 'string', value: 'navy' })],
    },
    {
      name: 'typed-unmatched',
      enabled: true,
      strategies: [{ name: 'userWithId', parameters: { userIds: 'u1' } }],
      variants: [variant('blue', { type: 'string', value: 'navy' })],
    },
    {
      name: 'bad-number',
      enabled: true,
      strategies: [DEFAULT],
      variants: [variant('oops', { type: 'number', value: 'forty-two' })],
    },
    { name: 'custom', enabled: true, strategies: [{ name: 'explodes', parameters: {} }] },
  ],
  segments: [],
}
