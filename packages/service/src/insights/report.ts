import type { Database } from '../db/database.js'
import * as store from '../store/insights.js'
import { endOfDay, utcDay } from './dates.js'

/** Spec 2.7 `instanceInsightsSchema`. */
export interface InstanceInsights {
  users: { total: number; active: number; inactive: number }
  flags: { total: number }
  userTrends: { date: string; total: number; active: number; inactive: number }[]
  flagTrends: FlagCounts[]
  projectFlagTrends: (FlagCounts & {
    week: string
    project: string
    health: number
    timeToProduction?: number
    users: number
  })[]
  metricsSummaryTrends: {
    week: string
    date: string
    project: string
    totalRequests: number
    totalYes: number
    totalNo: number
    totalApps: number
    totalFlags: number
    totalEnvironments: number
  }[]
  environmentTypeTrends: { date: string; week: string; environmentType: string; totalUpdates: number }[]
}

type FlagCounts = { date: string; total: number; active: number; stale: number; potentiallyStale: number }

/**
 * The insights of the instance: users and flags as they are `now`, trends from the snapshots in
 * the window. The flag trend's point for today, when today has a snapshot, is the live count, so
 * the chart ends where the Flags total stands however long ago that snapshot was. Active flags are neither stale nor potentially stale, so the three add up to the
 * total, and a project's health is the share of active flags (100 for a project without flags).
 */
export async function instanceInsights(db: Database, now: Date, window: store.TrendWindow): Promise<InstanceInsights> {
  const [users, flags, userTrends, flagTrends, projectFlagTrends, metrics, environmentTypes] = await Promise.all([
    store.countUsers(db, now),
    store.countFlags(db, now),
    store.readUserTrends(db, window),
    store.readFlagTrends(db, window),
    store.readProjectFlagTrends(db, window),
    store.readMetricsTrends(db, window),
    store.readEnvironmentTypeTrends(db, window),
  ])
  return {
    users: { total: users.total, active: users.active, inactive: users.total - users.active },
    flags: { total: flags.total },
    userTrends: userTrends.map((row) => ({
      date: endOfDay(row.day),
      total: row.total,
      active: row.active,
      inactive: row.total - row.active,
    })),
    flagTrends: withToday(flagTrends, { day: utcDay(now), ...flags }).map(flagCounts),
    projectFlagTrends: projectFlagTrends.map((row) => {
      const counts = flagCounts(row)
      return {
        week: row.week,
        project: row.project,
        ...counts,
        health: counts.total === 0 ? 100 : Math.round((100 * counts.active) / counts.total),
        ...(row.time_to_production === null ? {} : { timeToProduction: row.time_to_production }),
        users: row.users,
      }
    }),
    metricsSummaryTrends: metrics.map((row) => ({
      week: row.week,
      date: endOfDay(row.day),
      project: row.project,
      totalRequests: row.yes + row.no,
      totalYes: row.yes,
      totalNo: row.no,
      totalApps: row.apps,
      totalFlags: row.flags,
      totalEnvironments: row.environments,
    })),
    environmentTypeTrends: environmentTypes.map((row) => ({
      date: endOfDay(row.day),
      week: row.week,
      environmentType: row.environment_type,
      totalUpdates: row.updates,
    })),
  }
}

/** The trend with today's snapshot row, if it has one, counted afresh as `today`. */
function withToday(rows: store.FlagTrendRow[], today: store.FlagTrendRow) {
  return rows.map((row) => (row.day === today.day ? today : row))
}

function flagCounts(row: store.FlagTrendRow): FlagCounts {
  return {
    date: endOfDay(row.day),
    total: row.total,
    active: row.total - row.stale - row.potentially_stale,
    stale: row.stale,
    potentiallyStale: row.potentially_stale,
  }
}
