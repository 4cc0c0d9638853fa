import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { createUsageAggregator, splitBucket } from '@vexil/sync'
import { bulkBody, flattenBucket } from '../src/usage/bulk-body.js'
import { MAX_SERVED_TOKENS } from '../src/usage/served-tokens.js'

// The tokens a proxy served, reported with its metrics as SHA-256 hex of each secret (never the
// secret), bounded per report, kept across a failed send, and carried by every body form.
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')
const aggregator = () => createUsageAggregator({ countedVariants: () => new Set() })
const at = new Date('2026-05-01T10:00:00Z')

describe('served tokens in the usage bucket', () => {
  it('a served token alone makes a bucket, with its hash and never its secret', () => {
    const usage = aggregator()
    usage.served('default:development.secret-one')
    usage.served('default:development.secret-one')
    const bucket = usage.take(at)
    expect(bucket?.servedTokens).toEqual([sha256('default:development.secret-one')])
    expect(JSON.stringify(bucket)).not.toContain('secret-one')
    expect(usage.take(at)).toBeUndefined()
  })

  it(`a flood of tokens stops at ${MAX_SERVED_TOKENS} per report`, () => {
    const usage = aggregator()
    for (let i = 0; i < 3 * MAX_SERVED_TOKENS; i++) usage.served(`*:development.flood-${i}`)
    expect(usage.take(at)?.servedTokens).toHaveLength(MAX_SERVED_TOKENS)
  })

  it('a bucket that failed to send gives its tokens back to the next', () => {
    const usage = aggregator()
    usage.served('*:development.kept')
    const failed = usage.take(at)!
    usage.restore(failed)
    expect(usage.take(at)?.servedTokens).toEqual([sha256('*:development.kept')])
  })

  it('the first part of a split bucket, the flattened bucket and the bulk body carry them', () => {
    const usage = aggregator()
    usage.served('*:development.carried')
    for (let i = 0; i < 200; i++) usage.merge({ [`flag-${i}`]: { yes: 1 } })
    const bucket = usage.take(at)!
    const parts = splitBucket(bucket, 4_096)
    expect(parts.length).toBeGreaterThan(1)
    expect(parts.map((part) => part.servedTokens?.length ?? 0)).toEqual([1, ...parts.slice(1).map(() => 0)])
    expect(flattenBucket(bucket).servedTokens).toEqual(bucket.servedTokens)
    const reporter = { appName: 'proxy', instanceId: 'p-1', environment: 'development' }
    expect(bulkBody(bucket, reporter).servedTokens).toEqual(bucket.servedTokens)
  })
})
