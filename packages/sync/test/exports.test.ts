import { describe, expect, it } from 'vitest'

// Pins the public surface of src/index.ts and src/files/index.ts: a change to it is a decision, not a side effect.
describe('@vexil/sync public surface', () => {
  it('exports exactly these names', async () => {
    expect(Object.keys(await import('../src/index.js')).sort()).toEqual([
      'MAX_APPLICATIONS',
      'MAX_CONNECT_VIA',
      'MAX_NAME_LENGTH',
      'MAX_OTHER_VARIANTS',
      'MAX_UNKNOWN_FLAGS',
      'MAX_VARIANT_NAME_LENGTH',
      'METRICS_SEND_LIMIT_BYTES',
      'StreamClosedError',
      'UsageCounter',
      'appKey',
      'createDueTimers',
      'createEventStreamParser',
      'createFeed',
      'createPoller',
      'createUpstreamClient',
      'createUsageAggregator',
      'createUsageReporter',
      'fetchEventSource',
      'fetchRequest',
      'identityHeaders',
      'isKeepable',
      'isPayload',
      'knownFlags',
      'messageOf',
      'observedSend',
      'sendOutcome',
      'splitBucket',
      'systemTimers',
      'toUnleashContext',
    ])
  })

  it("keeps Node's file system behind @vexil/sync/files", async () => {
    expect(Object.keys(await import('../src/files/index.js')).sort()).toEqual([
      'UNTRUSTED',
      'createFileBackup',
      'readPrivateFile',
      'writePrivateFile',
    ])
  })
})
