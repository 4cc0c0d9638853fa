import { describe, expect, it } from 'vitest'
import { callerKey } from '../src/tokens/caller-key.js'

// The share of the validation queue a caller gets is keyed by its address (security review 2,
// finding 7): one host holds a whole IPv6 /64, so it must not ask as 2^64 callers.

describe('callerKey', () => {
  it('an IPv4 address is its own caller', () => {
    expect(callerKey('203.0.113.9')).toBe('203.0.113.9')
    expect(callerKey('203.0.113.10')).not.toBe(callerKey('203.0.113.9'))
  })

  it('IPv6 addresses of one /64 are one caller, however they are spelled; another /64 is another', () => {
    const one = callerKey('2001:db8:1:2::1')
    expect(callerKey('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe(one)
    expect(callerKey('2001:0DB8:0001:0002:0:0:0:7')).toBe(one)
    expect(callerKey('2001:db8:1:3::1')).not.toBe(one)
  })

  it('no address, or one that does not parse, is kept as it is', () => {
    expect(callerKey(undefined)).toBe('')
    expect(callerKey('not-an-ip')).toBe('not-an-ip')
    expect(callerKey('::ffff:zz')).toBe('::ffff:zz')
  })
})
