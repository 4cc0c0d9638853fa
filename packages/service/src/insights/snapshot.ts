import type { Database } from '../db/database.js'
import {
  lastSnapshotDay,
  snapshotEnvironmentTypes,
  snapshotMetrics,
  snapshotProjectFlags,
  snapshotUsers,
} from '../store/insight-snapshots.js'
import { utcDay, weekStart } from './dates.js'

/** Serializes snapshots across service instances sharing one PostgreSQL server. */
const SNAPSHOT_LOCK = 4_242_005

/**
 * Takes the insights snapshot of `at`'s UTC day, as of `at`: users, flags per project, and the
 * weekly metrics and configuration-update summaries since the previous snapshot's week. One
 * transaction; every row is upserted, so a second run for the same day replaces the first.
 */
export async function takeInsightsSnapshot(db: Database, at: Date): Promise<void> {
  const day = utcDay(at)
  await db.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(${SNAPSHOT_LOCK})`)
    const last = await lastSnapshotDay(tx)
    // biome-ignore lint/complexity/useMathMinMax: days are ISO date strings, which Math.min cannot compare
    const since = last === undefined ? undefined : weekStart(last < day ? last : day)
    await snapshotProjectFlags(tx, day, at)
    await snapshotMetrics(tx, day, at, since)
    await snapshotEnvironmentTypes(tx, day, at, since)
    await snapshotUsers(tx, day, at)
  })
}
