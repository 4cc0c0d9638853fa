// Implied registrations repeated with the same object (the proxy's cached OFREP answers register
// their caller on every answer): kept once per report, again after each report, never past the
// bounds, and an app turned away counted once per report (usage/registrations.ts).
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

  it('an app dropped over the bounds is counted once per report, however often it comes back', () => {
    const usage = aggregator()
    for (let i = 0; i < 1_000; i++) usage.register({ ...web, appName: `app-${i}` }, true)
    const late = { ...web, appName: 'late' }
    for (let i = 0; i < 50; i++) usage.register(late, true)
    expect(usage.dropped.registrations).toBe(1)
    // The same app in a new object (a worker's hand-over, the SDK's own post): still one app.
    for (let i = 0; i < 3; i++) usage.register({ ...late }, i === 0)
    expect(usage.dropped.registrations).toBe(1)
    usage.register({ ...web, appName: 'later' })
    expect(usage.dropped.registrations).toBe(2)
    // A name too long to keep is not remembered either: each is a drop.
    for (let i = 0; i < 3; i++) usage.register({ ...web, appName: 'x'.repeat(256) })
    expect(usage.dropped.registrations).toBe(5)
    expect(usage.take(new Date(1))?.applications?.some((app) => app.appName === 'late')).toBe(false)
    // The next report has room, and takes it.
    usage.register(late, true)
    expect(usage.take(new Date(2))?.applications).toEqual([late])
    expect(usage.dropped.registrations).toBe(5)
  })

  it('remembers at most MAX_APPLICATIONS apps it turned away; past that each drop counts', () => {
    const usage = aggregator()
    for (let i = 0; i < 1_000; i++) usage.register({ ...web, appName: `app-${i}` }, true)
    for (let round = 0; round < 2; round++)
      for (let i = 0; i < 1_500; i++) usage.register({ ...web, appName: `late-${i}` }, true)
    expect(usage.dropped.registrations).toBe(1_500 + 500)
  })

  it('a posted registration still wins over a repeated implied one', () => {
    const usage = aggregator()
    usage.register(web, true)
    usage.register({ ...web, sdkVersion: 'unleash-client-js:3.0.0' })
    usage.register(web, true)
    expect(usage.take(new Date(1))?.applications).toEqual([{ ...web, sdkVersion: 'unleash-client-js:3.0.0' }])
  })
})
