import { invalidOperation, notFound } from '../errors.js'
import * as dependencies from '../store/dependencies.js'
import { getFeature } from '../store/features.js'
import { type Change, recordEvent } from './change.js'
import { requireFeature } from './lookups.js'

interface DependencyInput {
  /** The parent flag. */
  feature: string
  enabled: boolean
  variants: string[]
}

/**
 * Makes the flag depend on a parent, replacing its previous parent (Unleash: one parent, in the
 * same project, and no grandchildren).
 */
export async function addDependency(
  change: Change,
  project: string,
  childName: string,
  input: DependencyInput,
): Promise<void> {
  const { tx } = change
  const child = await requireFeature(tx, project, childName, { lock: true })
  const parent = await getFeature(tx, input.feature)
  if (!parent || parent.archived_at) throw notFound(`Parent feature "${input.feature}"`)
  if (parent.name === child.name) throw invalidOperation('A flag can not depend on itself.')
  if (parent.project !== child.project)
    throw invalidOperation('A parent flag must be in the same project as its child.')
  if ((await dependencies.parentsOf(tx, parent.name)).length > 0)
    throw invalidOperation(`"${parent.name}" has a parent itself; dependencies are one level deep.`)
  if ((await dependencies.childrenOf(tx, child.name)).length > 0)
    throw invalidOperation(`"${child.name}" has children, so it can not have a parent.`)
  await dependencies.setDependency(tx, {
    parent: parent.name,
    child: child.name,
    enabled: input.enabled,
    variants: input.variants,
  })
  await recordEvent(change, { type: 'feature-dependency-added', project, featureName: child.name, data: input })
}

/** Removes the flag's dependency on one parent (404 when there is none). */
export async function removeDependency(
  change: Change,
  project: string,
  childName: string,
  parent: string,
): Promise<void> {
  const child = await requireFeature(change.tx, project, childName, { lock: true })
  if ((await dependencies.deleteDependency(change.tx, child.name, parent)) === 0)
    throw notFound(`Dependency of "${child.name}" on "${parent}"`)
  await recordEvent(change, {
    type: 'feature-dependency-removed',
    project,
    featureName: child.name,
    data: { feature: parent },
  })
}

/** Removes all of the flag's dependencies; an event only when there were some. */
export async function removeDependencies(change: Change, project: string, childName: string): Promise<void> {
  const child = await requireFeature(change.tx, project, childName, { lock: true })
  if ((await dependencies.deleteDependency(change.tx, child.name)) > 0) {
    await recordEvent(change, { type: 'feature-dependencies-removed', project, featureName: child.name })
  }
}
