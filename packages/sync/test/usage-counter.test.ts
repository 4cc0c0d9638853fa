// Usage metrics as Unleash server SDKs count and post them: yes/no per flag, variants when a
// variant was asked for; a bucket that could not be sent is merged into the next.
import { describe, expect, it } from 'vitest'
import { UsageCounter } from '../src/index.js'

describe('UsageCounter', () => {
  it('counts yes/no and variants into the body of POST /client/metrics', () => {
    const counter = new UsageCounter()
    counter.count('a', true)
    counter.count('a', false)
    counter.count('a', true)
    counter.countVariant('b', true, 'blue')
    counter.countVariant('b', true, 'blue')
    counter.countVariant('b', false, 'disabled')
    const usage = counter.usage('c')
    usage.yes += 3
    const stop = new Date('2026-01-01T00:01:00Z')
    const body = counter.take(stop)!
    expect(body.toggles).toEqual({
      a: { yes: 2, no: 1, variants: {} },
      b: { yes: 2, no: 1, variants: { blue: 2, disabled: 1 } },
      c: { yes: 3, no: 0, variants: {} },
    })
    expect(body.stop).toBe('2026-01-01T00:01:00.000Z')
    expect(Date.parse(body.start)).not.toBeNaN()
  })

  it('take starts afresh; counts held by reference keep counting into the next bucket', () => {
    const counter = new UsageCounter()
    const usage = counter.usage('held')
    usage.no++
    counter.count('by-name', true)
    expect(Object.keys(counter.take(new Date())!.toggles)).toHaveLength(2)
    expect(counter.take(new Date())).toBeUndefined()
    usage.yes++
    expect(counter.take(new Date())!.toggles).toEqual({ held: { yes: 1, no: 0, variants: {} } })
  })

  it('restore merges a bucket that could not be sent into the counts since, keeping the earlier start', () => {
    const counter = new UsageCounter()
    counter.countVariant('a', true, 'blue')
    const failed = counter.take(new Date())!
    counter.countVariant('a', false, 'disabled')
    counter.countVariant('a', true, 'blue')
    counter.restore(failed)
    const next = counter.take(new Date())!
    expect(Date.parse(next.start)).toBeLessThanOrEqual(Date.parse(failed.start))
    expect(next.toggles).toEqual({ a: { yes: 2, no: 1, variants: { blue: 2, disabled: 1 } } })
  })
})
