import type { Queryable } from '../db/database.js'
import { notFound } from '../errors.js'
import { getEnvironment } from '../store/environments.js'
import { type FeatureRow, getFeature, lockFeature } from '../store/features.js'
import { getProject, projectEnvironments, type ProjectRow } from '../store/projects.js'

/** Lookups every domain operation (and the admin routes' reads) share: each throws 404 naming what is missing. */

export async function requireProject(q: Queryable, id: string): Promise<ProjectRow> {
  const project = await getProject(q, id)
  if (!project) throw notFound(`Project "${id}"`)
  return project
}

export async function requireEnvironment(q: Queryable, name: string): Promise<void> {
  if (!(await getEnvironment(q, name))) throw notFound(`Environment "${name}"`)
}

/**
 * The flag, which must belong to the project in the path (Unleash #5982: a path with another
 * project must not reach the flag). `lock` takes a row lock so concurrent changes queue.
 */
export async function requireFeature(
  q: Queryable,
  project: string,
  name: string,
  options: { archived?: boolean; lock?: boolean } = {},
): Promise<FeatureRow> {
  const feature = options.lock ? await lockFeature(q, name) : await getFeature(q, name)
  const archived = options.archived ?? false
  if (!feature || feature.project !== project || (feature.archived_at !== null) !== archived) {
    throw notFound(`${archived ? 'Archived feature' : 'Feature'} "${name}" in project "${project}"`)
  }
  return feature
}

/** The environment must exist and be enabled for the flag's project. */
export async function requireProjectEnvironment(q: Queryable, project: string, environment: string): Promise<void> {
  await requireEnvironment(q, environment)
  if (!(await projectEnvironments(q, project)).includes(environment)) {
    throw notFound(`Environment "${environment}" in project "${project}"`)
  }
}
