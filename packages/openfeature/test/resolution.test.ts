// What each resolve method answers (README, "Values and types"), on an upstream answered in
// memory: booleans are Unleash's enabled state for every flag; strings, numbers and objects are
// the enabled variant's payload, the caller's default when there is none, TYPE_MISMATCH when it is
// of another type; the engine's errors come back as error codes with the default, never thrown.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ErrorCode, OpenFeature } from '@openfeature/server-sdk'
import { VexilProvider } from '../src/index.js'
import { inMemoryFetch, KINDS_PAYLOAD, recordingLogger } from './helpers.js'

const logger = recordingLogger()
const provider = new VexilProvider({
  url: 'http://127.0.0.1:9/api',
  clientKey: 'key',
  appName: 'resolution-test',
  streaming: false,
  fetch: inMemoryFetch(KINDS_PAYLOAD),
  logger,
})
const u1 = { targetingKey: 'u1' }

beforeAll(async () => {
  await provider.initialize()
  // Loading said the `custom` flag's strategy is unknown (no custom strategy here): that is all.
  expect(logger.lines).toEqual([
    'warn: VexilProvider: 1 warning(s) loading flags: custom: unknown strategy "explodes"; it never matches',
  ])
  logger.lines.length = 0
})
afterAll(() => provider.onClose())

describe('resolveBooleanEvaluation', () => {
  it('a boolean flag: its value, variant and reason', async () => {
    expect(await provider.resolveBooleanEvaluation('bool-on', false, {})).toMatchObject({
      value: true,
      variant: 'enabled',
      reason: 'STATIC',
    })
    expect(await provider.resolveBooleanEvaluation('bool-off', true, {})).toMatchObject({
      value: false,
      variant: 'disabled',
      reason: 'DISABLED',
    })
    expect(await provider.resolveBooleanEvaluation('bool-users', false, u1)).toMatchObject({
      value: true,
      variant: 'enabled',
      reason: 'TARGETING_MATCH',
    })
    expect(await provider.resolveBooleanEvaluation('bool-users', true, { targetingKey: 'u3' })).toMatchObject({
      value: false,
      variant: 'disabled',
      reason: 'DEFAULT',
    })
    expect(await provider.resolveBooleanEvaluation('bool-tenant', false, { tenant: 'acme' })).toMatchObject({
      value: true,
      reason: 'TARGETING_MATCH',
    })
  })

  it('flagMetadata says enabled and impressionData', async () => {
    expect((await provider.resolveBooleanEvaluation('bool-users', false, u1)).flagMetadata).toEqual({
      enabled: true,
      impressionData: true,
    })
    expect((await provider.resolveBooleanEvaluation('bool-off', false, {})).flagMetadata).toEqual({
      enabled: false,
      impressionData: false,
    })
  })

  it('the same outcome is the same shared result: nothing is allocated for it', async () => {
    const first = provider.resolveBooleanEvaluation('bool-users', false, { targetingKey: 'u1' })
    const second = provider.resolveBooleanEvaluation('bool-users', false, { targetingKey: 'u2' })
    expect(second).toBe(first)
    expect(Object.isFrozen(await first)).toBe(true)
  })

  it('a flag with variants answers its enabled state, with the variant and the reason', async () => {
    expect(await provider.resolveBooleanEvaluation('string', false, {})).toEqual({
      value: true,
      variant: 'blue',
      reason: 'STATIC',
      flagMetadata: { enabled: true, impressionData: false },
    })
    expect(await provider.resolveBooleanEvaluation('typed-off', true, {})).toEqual({
      value: false,
      variant: 'disabled',
      reason: 'DISABLED',
      flagMetadata: { enabled: false, impressionData: false },
    })
    expect(await provider.resolveBooleanEvaluation('typed-unmatched', true, {})).toMatchObject({
      value: false,
      variant: 'disabled',
      reason: 'DEFAULT',
    })
  })
})

describe('resolveStringEvaluation, resolveNumberEvaluation, resolveObjectEvaluation', () => {
  it('answer the payload by its type, with the variant name', async () => {
    expect(await provider.resolveStringEvaluation('string', 'red', {})).toMatchObject({
      value: 'navy',
      variant: 'blue',
      reason: 'STATIC',
    })
    expect(await provider.resolveNumberEvaluation('number', 0, {})).toMatchObject({
      value: 42,
      variant: 'answer',
      reason: 'STATIC',
    })
    expect(await provider.resolveObjectEvaluation('object', {}, {})).toMatchObject({
      value: { columns: 3, dense: true },
      variant: 'layout',
      reason: 'STATIC',
    })
    expect(await provider.resolveStringEvaluation('named', 'x', {})).toMatchObject({
      value: 'just-a-name',
      variant: 'just-a-name',
    })
  })

  it('no value (off, or on without a variant): the code default with the reason, no error', async () => {
    expect(await provider.resolveStringEvaluation('typed-off', 'code-default', {})).toEqual({
      value: 'code-default',
      reason: 'DISABLED',
      flagMetadata: { enabled: false, impressionData: false },
    })
    expect(await provider.resolveStringEvaluation('typed-unmatched', 'code-default', {})).toEqual({
      value: 'code-default',
      reason: 'DEFAULT',
      flagMetadata: { enabled: false, impressionData: false },
    })
  })

  it.each([
    ['a string for a number flag', () => provider.resolveStringEvaluation('number', 'd', {}), 'd'],
    ['a number for a string flag', () => provider.resolveNumberEvaluation('string', 7, {}), 7],
    ['an object for a string flag', () => provider.resolveObjectEvaluation('string', { d: 1 }, {}), { d: 1 }],
    ['a string for an object flag', () => provider.resolveStringEvaluation('object', 'd', {}), 'd'],
    ['a string for a boolean flag', () => provider.resolveStringEvaluation('bool-on', 'd', {}), 'd'],
    ['a number for a boolean flag', () => provider.resolveNumberEvaluation('bool-on', 1, {}), 1],
  ])('%s is TYPE_MISMATCH with the default', async (_, resolve, fallback) => {
    const result = await resolve()
    expect(result).toMatchObject({ value: fallback, reason: 'ERROR', errorCode: ErrorCode.TYPE_MISMATCH })
    expect(result.errorMessage).toMatch(/asked for a/)
  })
})

describe('errors are results, never exceptions', () => {
  it('an unknown flag is FLAG_NOT_FOUND with the default, for every type', async () => {
    expect(await provider.resolveBooleanEvaluation('nope', true, {})).toMatchObject({
      value: true,
      reason: 'ERROR',
      errorCode: ErrorCode.FLAG_NOT_FOUND,
      errorMessage: 'No flag named "nope"',
    })
    expect(await provider.resolveStringEvaluation('nope', 's', {})).toMatchObject({
      value: 's',
      errorCode: ErrorCode.FLAG_NOT_FOUND,
    })
    expect(await provider.resolveNumberEvaluation('nope', 3, {})).toMatchObject({
      value: 3,
      errorCode: ErrorCode.FLAG_NOT_FOUND,
    })
    expect(await provider.resolveObjectEvaluation('nope', [1], {})).toMatchObject({
      value: [1],
      errorCode: ErrorCode.FLAG_NOT_FOUND,
    })
  })

  it('a payload that does not fit its type is PARSE_ERROR, for booleans too', async () => {
    expect(await provider.resolveNumberEvaluation('bad-number', 5, {})).toMatchObject({
      value: 5,
      reason: 'ERROR',
      errorCode: ErrorCode.PARSE_ERROR,
    })
    expect(await provider.resolveBooleanEvaluation('bad-number', false, {})).toMatchObject({
      value: false,
      reason: 'ERROR',
      errorCode: ErrorCode.PARSE_ERROR,
    })
  })

  it('a custom strategy that throws is GENERAL', async () => {
    const exploding = new VexilProvider({
      url: 'http://127.0.0.1:9/api',
      clientKey: 'key',
      appName: 'resolution-test',
      streaming: false,
      metricsInterval: 0,
      fetch: inMemoryFetch(KINDS_PAYLOAD),
      strategies: [
        {
          name: 'explodes',
          isEnabled: () => {
            throw new Error('boom')
          },
        },
      ],
    })
    await exploding.initialize()
    expect(await exploding.resolveBooleanEvaluation('custom', true, {})).toMatchObject({
      value: true,
      reason: 'ERROR',
      errorCode: ErrorCode.GENERAL,
    })
    await exploding.onClose()
  })

  it('before any flags were loaded, an evaluation is PROVIDER_NOT_READY', async () => {
    const fresh = new VexilProvider({
      url: 'http://127.0.0.1:9/api',
      clientKey: 'key',
      appName: 'resolution-test',
      fetch: inMemoryFetch(KINDS_PAYLOAD),
    })
    expect(await fresh.resolveBooleanEvaluation('bool-on', false, {})).toMatchObject({
      value: false,
      reason: 'ERROR',
      errorCode: ErrorCode.PROVIDER_NOT_READY,
    })
  })

  it('nothing was logged while evaluating', () => {
    expect(logger.lines).toEqual([])
  })
})

describe('through the OpenFeature SDK', () => {
  it('getXValue and getXDetails answer as the provider resolves', async () => {
    await OpenFeature.setProviderAndWait('resolution', provider)
    const client = OpenFeature.getClient('resolution')
    expect(await client.getBooleanValue('bool-users', false, u1)).toBe(true)
    expect(await client.getStringValue('string', 'red')).toBe('navy')
    expect(await client.getNumberValue('number', 0)).toBe(42)
    expect(await client.getObjectValue('object', {})).toEqual({ columns: 3, dense: true })
    expect(await client.getStringDetails('number', 'd')).toMatchObject({
      value: 'd',
      errorCode: ErrorCode.TYPE_MISMATCH,
      reason: 'ERROR',
    })
    expect(await client.getBooleanDetails('nope', true)).toMatchObject({
      value: true,
      errorCode: ErrorCode.FLAG_NOT_FOUND,
      flagKey: 'nope',
    })
    expect(await client.getBooleanDetails('bool-users', false, u1)).toEqual({
      value: true,
      variant: 'enabled',
      reason: 'TARGETING_MATCH',
      flagKey: 'bool-users',
      flagMetadata: { enabled: true, impressionData: true },
    })
    expect(await client.getStringDetails('string', 'red')).toEqual({
      value: 'navy',
      variant: 'blue',
      reason: 'STATIC',
      flagKey: 'string',
      flagMetadata: { enabled: true, impressionData: false },
    })
  })
})
