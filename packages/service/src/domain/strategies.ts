import type { Queryable } from '../db/database.js'
import { badData, notFound } from '../errors.js'
import type { StrategyBody } from '../schemas/strategy.js'
import { getProject } from '../store/projects.js'
import { missingSegments } from '../store/segments.js'
import * as strategies from '../store/strategies.js'
import { type Change, recordEvent } from './change.js'
import { requireFeature, requireProjectEnvironment } from './lookups.js'
import { completeStrategy } from './strategy-defaults.js'

/** A flag in one environment of its project: where a strategy lives. */
export type StrategyTarget = strategies.StrategyTarget

/** The new body of a strategy, or how to make it from the stored one (a JSON patch). */
type StrategyReplacement = StrategyBody | ((current: strategies.StrategyRow) => StrategyBody)

/** 404 unless the flag is in the project and the environment is one of the project's; `lock` queues concurrent changes. */
export async function requireStrategyTarget(q: Queryable, target: StrategyTarget, lock = false): Promise<void> {
  await requireFeature(q, target.project, target.feature, { lock })
  await requireProjectEnvironment(q, target.project, target.environment)
}

/** The strategy, which must belong to the flag and environment of the path. */
export async function requireStrategy(
  q: Queryable,
  target: StrategyTarget,
  id: string,
): Promise<strategies.StrategyRow> {
  const row = await strategies.getStrategy(q, id)
  if (!row || row.feature_name !== target.feature || row.environment !== target.environment)
    throw notFound(`Strategy "${id}"`)
  return row
}

export async function addStrategy(
  change: Change,
  target: StrategyTarget,
  body: StrategyBody,
): Promise<strategies.StrategyRow> {
  await requireStrategyTarget(change.tx, target, true)
  const inserted = await strategies.insertStrategy(
    change.tx,
    target,
    await prepare(change.tx, body, target),
    change.clock(),
    change.actor.userId,
  )
  await recordEvent(change, { type: 'feature-strategy-add', ...where(target), data: strategies.toStrategy(inserted) })
  return inserted
}

export async function updateStrategy(
  change: Change,
  target: StrategyTarget,
  id: string,
  replacement: StrategyReplacement,
): Promise<strategies.StrategyRow> {
  await requireStrategyTarget(change.tx, target, true)
  const before = await requireStrategy(change.tx, target, id)
  const next = typeof replacement === 'function' ? replacement(before) : replacement
  const after = await strategies.updateStrategy(change.tx, before.id, await prepare(change.tx, next, target))
  await recordEvent(change, {
    type: 'feature-strategy-update',
    ...where(target),
    data: strategies.toStrategy(after),
    preData: strategies.toStrategy(before),
  })
  return after
}

export async function deleteStrategy(change: Change, target: StrategyTarget, id: string): Promise<void> {
  await requireStrategyTarget(change.tx, target, true)
  const row = await requireStrategy(change.tx, target, id)
  await strategies.deleteStrategy(change.tx, row.id)
  await recordEvent(change, { type: 'feature-strategy-remove', ...where(target), preData: strategies.toStrategy(row) })
}

/** Sets the sortOrder of the listed strategies (each must be the flag's, in the environment). */
export async function reorderStrategies(
  change: Change,
  target: StrategyTarget,
  order: { id: string; sortOrder: number }[],
): Promise<void> {
  await requireStrategyTarget(change.tx, target, true)
  for (const item of order) {
    await requireStrategy(change.tx, target, item.id)
    await strategies.setSortOrder(change.tx, item.id, item.sortOrder)
  }
  await recordEvent(change, { type: 'feature-strategy-update', ...where(target), data: { sortOrder: order } })
}

// --- Internal helpers ---

/** Its segments must exist; then Unleash's defaults are filled in (strategy-defaults.ts). */
async function prepare(q: Queryable, body: StrategyBody, target: StrategyTarget): Promise<StrategyBody> {
  const missing = await missingSegments(q, body.segments)
  if (missing.length > 0) throw badData(`body.segments: segment ${missing.join(', ')} does not exist.`)
  const stickiness = (await getProject(q, target.project))?.default_stickiness ?? 'default'
  return completeStrategy(body, target.feature, stickiness)
}

function where(target: StrategyTarget) {
  return { project: target.project, featureName: target.feature, environment: target.environment }
}
