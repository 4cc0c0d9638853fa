// The insights benchmark measures real work: the instance it serves has the 10k flags, 100k
// metric rows and 12 weeks of snapshots it claims, and GET /api/admin/insights adds them up.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  fetchInsights,
  flagRules,
  type InsightsInstance,
  metricRules,
  startInsightsInstance,
  userRules,
  WORKLOAD,
} from './insights-workload.js'

const range = (n: number) => Array.from({ length: n }, (_, i) => i)
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0)

describe('insights benchmark inputs', () => {
  let instance: InsightsInstance
  let body: any
  beforeAll(async () => {
    instance = await startInsightsInstance()
    body = await fetchInsights(instance)
  }, 120_000)
  afterAll(() => instance?.close())

  it('holds 10k flags and 100k hourly metric rows', async () => {
    const [counts] = await instance.db.query<{ flags: number; metrics: number; events: number }>(
      `SELECT (SELECT count(*) FROM features)::int AS flags, (SELECT count(*) FROM client_metrics_hourly)::int AS metrics,
         (SELECT count(*) FROM events)::int AS events`,
    )
    expect(counts).toEqual({ flags: WORKLOAD.flags, metrics: WORKLOAD.metricRows, events: WORKLOAD.events })
  })

  it('live totals: the non-archived flags and the real, active users', () => {
    const real = range(WORKLOAD.users).filter(userRules.real)
    const active = real.filter(userRules.active).length
    expect(body.flags.total).toBe(range(WORKLOAD.flags).filter((i) => !flagRules.archived(i)).length)
    expect(body.users).toEqual({ total: real.length, active, inactive: real.length - active })
  })

  it('trends: a point per day of the 12-week window, and a row per project and week', () => {
    expect(body.userTrends).toHaveLength(WORKLOAD.snapshotDays)
    expect(body.flagTrends.at(-1)).toMatchObject({ date: '2026-06-01T23:59:59.999Z', total: body.flags.total })
    const { stale, potentiallyStale, active } = body.flagTrends.at(-1)
    expect(stale).toBe(range(WORKLOAD.flags).filter((i) => i % 10 === 3 && !flagRules.archived(i)).length)
    expect(potentiallyStale).toBeGreaterThan(1000)
    expect(active).toBeGreaterThan(1000)
    // 13 ISO weeks touch the window (Tuesday 2026-03-10 to Monday 2026-06-01); 20 projects plus `default`.
    expect(body.projectFlagTrends).toHaveLength(13 * (WORKLOAD.projects + 1))
    // Flags numbered 1 (mod 4) reach production, so projects 1, 5, 9, 13 and 17 (number mod 20), every week.
    const withTimeToProduction = body.projectFlagTrends.filter(
      (row: { timeToProduction?: number }) => row.timeToProduction !== undefined,
    )
    expect(withTimeToProduction).toHaveLength(5 * 13)
    expect(
      withTimeToProduction.every(
        (row: { timeToProduction: number }) => row.timeToProduction >= 1 && row.timeToProduction <= 9,
      ),
    ).toBe(true)
  })

  it('metrics and configuration updates: every row counted once, in some project and week', () => {
    const rows = range(WORKLOAD.metricRows)
    expect(sum(body.metricsSummaryTrends.map((t: { totalYes: number }) => t.totalYes))).toBe(
      sum(rows.map(metricRules.yes)),
    )
    expect(sum(body.metricsSummaryTrends.map((t: { totalNo: number }) => t.totalNo))).toBe(
      sum(rows.map(metricRules.no)),
    )
    expect(new Set(body.metricsSummaryTrends.map((t: { project: string }) => t.project)).size).toBe(WORKLOAD.projects)
    expect(sum(body.environmentTypeTrends.map((t: { totalUpdates: number }) => t.totalUpdates))).toBe(WORKLOAD.events)
  })
})
