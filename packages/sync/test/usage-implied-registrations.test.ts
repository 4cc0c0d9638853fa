// Implied registrations repeated with the same object (the proxy's cached OFREP answers register
// their caller on every answer): kept once per report, again after each report, never past the
// bounds, and a drop counted once per report (usage/registrations.ts).
import { describe, expect, it } from 'vitest'
import { createUsageAggregator, type AppRegistration } from '@vexil/sync'

const aggregator = () => createUsageAggregator({ countedVariants: () => undefined, now: () => new Date(0) })
const web: AppRegistration = {
  appName: 'web',
  instanceId: 'tab-1',
  sdkType: 'frontend',
  sdkVersion: 'ofrep',
  strategies: [],
}

describe('implied registrations', () => {
  it('the same object registered again is kept once per report, and again after each report', () => {
    const usage = aggregator()
    for (let i = 0; i < 3; i++) usage.register(web, true)
    expect(usage.take(new Date(1))?.applications).toEqual([web])
    expect(usage.take(new Date(2))).toBeUndefined()
    usage.register(web, true)
    expect(usage.take(new Date(3))?.applications).toEqual([web])
    expect(usage.dropped.registrations).toBe(0)
  })

  it('a repeated object dropped over the bounds is counted as dropped once, never taken as kept', () => {
    const usage = aggregator()
    for (let i = 0; i < 1_000; i++) usage.register({ ...web, appName: `app-${i}` }, true)
    const late = { ...web, appName: 'late' }
    const long = { ...web, appName: 'x'.repeat(256) }
    for (let i = 0; i < 50; i++) {
      usage.register(late, true)
      usage.register(long, true)
    }
    // The drop counter counts apps turned away, not the answers that carried them.
    expect(usage.dropped.registrations).toBe(2)
    // A registration an SDK posts is a new object each time: each is a drop.
    for (let i = 0; i < 3; i++) usage.register({ ...late })
    expect(usage.dropped.registrations).toBe(5)
    expect(usage.take(new Date(1))?.applications?.some((app) => app.appName === 'late')).toBe(false)
    // The next report has room, and takes it.
    usage.register(late, true)
    expect(usage.take(new Date(2))?.applications).toEqual([late])
    expect(usage.dropped.registrations).toBe(5)
  })

  it('a posted registration still wins over a repeated implied one', () => {
    const usage = aggregator()
    usage.register(web, true)
    usage.register({ ...web, sdkVersion: 'unleash-client-js:3.0.0' })
    usage.register(web, true)
    expect(usage.take(new Date(1))?.applications).toEqual([{ ...web, sdkVersion: 'unleash-client-js:3.0.0' }])
  })
})
