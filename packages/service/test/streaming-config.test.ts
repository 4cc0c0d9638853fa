import { describe, expect, it } from 'vitest'
import { ConfigError, parseServiceConfig } from '../src/config.js'

describe('streaming settings', () => {
  it('default to on, a 15 s keep-alive and 10,000 streams', () => {
    expect(parseServiceConfig({}).streaming).toEqual({ enabled: true, keepAliveMs: 15_000, maxConnections: 10_000 })
  })

  it('are read from STREAMING, STREAMING_KEEPALIVE_MS and STREAMING_MAX_CONNECTIONS', () => {
    expect(
      parseServiceConfig({ STREAMING: 'false', STREAMING_KEEPALIVE_MS: '5000', STREAMING_MAX_CONNECTIONS: '2' })
        .streaming,
    ).toEqual({ enabled: false, keepAliveMs: 5_000, maxConnections: 2 })
  })

  it.each([
    ['STREAMING', 'perhaps', 'STREAMING must be true or false, got "perhaps"'],
    ['STREAMING_KEEPALIVE_MS', '60000', 'STREAMING_KEEPALIVE_MS must be at most 50000, got 60000'],
    ['STREAMING_KEEPALIVE_MS', '0', 'STREAMING_KEEPALIVE_MS must be a positive integer, got "0"'],
    ['STREAMING_MAX_CONNECTIONS', 'many', 'STREAMING_MAX_CONNECTIONS must be a positive integer, got "many"'],
  ])('refuse %s=%s with a message naming it', (name, value, message) => {
    expect(() => parseServiceConfig({ [name]: value })).toThrow(ConfigError)
    expect(() => parseServiceConfig({ [name]: value })).toThrow(message)
  })
})
