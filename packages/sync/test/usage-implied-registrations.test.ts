// Implied registrations repeated with the same object (the proxy's cached OFREP answers register
// their caller on every answer): kept once per report, again after each report, and never past
// the bounds (usage/registrations.ts).
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

  it('a repeated object dropped over the bounds is dropped each time, never taken as kept', () => {
    const usage = aggregator()
    for (let i = 0; i < 1_000; i++) usage.register({ ...web, appName: `app-${i}` }, true)
    const late = { ...web, appName: 'late' }
    usage.register(late, true)
    usage.register(late, true)
    expect(usage.dropped.registrations).toBe(2)
    expect(usage.take(new Date(1))?.applications?.some((app) => app.appName === 'late')).toBe(false)
  })

  it('a posted registration still wins over a repeated implied one', () => {
    const usage = aggregator()
    usage.register(web, true)
    usage.register({ ...web, sdkVersion: 'unleash-client-js:3.0.0' })
    usage.register(web, true)
    expect(usage.take(new Date(1))?.applications).toEqual([{ ...web, sdkVersion: 'unleash-client-js:3.0.0' }])
  })
})
