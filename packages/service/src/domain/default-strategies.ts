import type { Queryable } from '../db/database.js'
import { badData } from '../errors.js'
import type { StrategyBody } from '../schemas/strategy.js'
import * as defaults from '../store/default-strategies.js'
import type { ProjectRow } from '../store/projects.js'
import { missingSegments } from '../store/segments.js'
import { type Change, recordEvent } from './change.js'
import { requireProject, requireProjectEnvironment } from './lookups.js'
import { builtInDefaultStrategy } from './strategy-defaults.js'
import { fixVariantWeights } from './variant-weights.js'

export type DefaultStrategy = defaults.DefaultStrategy

/** What enabling a flag of the project adds in an environment where it has no strategy: the project's own, else the built-in. */
export async function projectDefaultStrategy(
  q: Queryable,
  project: ProjectRow,
  environment: string,
): Promise<DefaultStrategy> {
  return (
    (await defaults.getDefaultStrategy(q, project.id, environment)) ??
    builtInDefaultStrategy(project.default_stickiness)
  )
}

/** The project's default strategy in one of its environments (404 for an unknown project or an environment not in it). */
export async function readDefaultStrategy(
  q: Queryable,
  projectId: string,
  environment: string,
): Promise<DefaultStrategy> {
  const project = await requireProject(q, projectId)
  await requireProjectEnvironment(q, projectId, environment)
  return projectDefaultStrategy(q, project, environment)
}

/**
 * Sets the project's default strategy in one of its environments. As Unleash 8.2: only a
 * flexibleRollout (400 otherwise); its segments must exist and its variants' weights add up, as
 * for a flag's strategy, so enabling a flag never fails on it later.
 */
export async function setDefaultStrategy(
  change: Change,
  projectId: string,
  environment: string,
  body: StrategyBody,
): Promise<DefaultStrategy> {
  const { tx } = change
  const project = await requireProject(tx, projectId)
  await requireProjectEnvironment(tx, projectId, environment)
  if (body.name !== 'flexibleRollout')
    throw badData(`body.name: only "flexibleRollout" can be an environment's default strategy, got "${body.name}".`)
  const missing = await missingSegments(tx, body.segments)
  if (missing.length > 0) throw badData(`body.segments: segment ${missing.join(', ')} does not exist.`)
  const strategy: DefaultStrategy = {
    name: body.name,
    title: body.title ?? null,
    disabled: body.disabled ?? false,
    constraints: body.constraints,
    parameters: body.parameters,
    variants: fixVariantWeights(body.variants, 'body.variants'),
    segments: [...new Set(body.segments)],
  }
  const before = await defaults.getDefaultStrategy(tx, projectId, environment)
  await defaults.setDefaultStrategy(tx, projectId, environment, strategy)
  await recordEvent(change, {
    type: 'default-strategy-updated',
    project: project.id,
    environment,
    data: strategy,
    preData: before ?? null,
  })
  return strategy
}
