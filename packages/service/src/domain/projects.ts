import { invalidOperation, nameExists, notFound } from '../errors.js'
import * as projects from '../store/projects.js'
import { type Change, recordEvent } from './change.js'
import { requireEnvironment, requireProject } from './lookups.js'

interface NewProject extends projects.ProjectInput {
  /** Its environments; all enabled ones when absent (Unleash). */
  environments?: string[] | undefined
}

/** A new project (409 when the id is taken); the listed environments must exist. */
export async function createProject(change: Change, input: NewProject): Promise<projects.ProjectRow> {
  const { tx } = change
  if (await projects.getProject(tx, input.id)) throw nameExists(`A project with the id "${input.id}" already exists.`)
  for (const environment of input.environments ?? []) await requireEnvironment(tx, environment)
  await projects.insertProject(tx, input, input.environments, change.clock())
  await recordEvent(change, { type: 'project-created', project: input.id, data: input })
  return (await projects.getProject(tx, input.id)) as projects.ProjectRow
}

export async function updateProject(change: Change, input: projects.ProjectInput): Promise<void> {
  const before = await requireProject(change.tx, input.id)
  await projects.updateProject(change.tx, input, change.clock())
  await recordEvent(change, {
    type: 'project-updated',
    project: input.id,
    data: input,
    preData: projects.toProject(before),
  })
}

/** Deletes a project with no live flags (its archived ones go with it); never `default`. */
export async function deleteProject(change: Change, id: string): Promise<void> {
  const project = await requireProject(change.tx, id)
  if (id === 'default') throw invalidOperation('You can not delete the default project!')
  if ((project.feature_count ?? 0) > 0)
    throw invalidOperation('You can not delete a project with active feature flags.')
  await projects.deleteProject(change.tx, id)
  await recordEvent(change, { type: 'project-deleted', project: id })
}

/** Makes an environment one of the project's; an event only when it was not yet. */
export async function addProjectEnvironment(change: Change, id: string, environment: string): Promise<void> {
  await requireProject(change.tx, id)
  await requireEnvironment(change.tx, environment)
  if (await projects.addProjectEnvironment(change.tx, id, environment)) {
    await recordEvent(change, { type: 'project-environment-added', project: id, environment })
  }
}

/** Takes an environment from the project, with its flags' state and strategies there. */
export async function removeProjectEnvironment(change: Change, id: string, environment: string): Promise<void> {
  await requireProject(change.tx, id)
  if (!(await projects.removeProjectEnvironment(change.tx, id, environment))) {
    throw notFound(`Environment "${environment}" in project "${id}"`)
  }
  await recordEvent(change, { type: 'project-environment-removed', project: id, environment })
}
