import { invalidOperation, nameExists, notFound } from '../errors.js'
import * as environments from '../store/environments.js'
import { type Change, recordEvent } from './change.js'

type NewEnvironment = environments.EnvironmentInput

interface EnvironmentUpdate {
  type: string
  sortOrder?: number | undefined
}

/** A new environment (409 when the name is taken). */
export async function createEnvironment(change: Change, input: NewEnvironment): Promise<void> {
  if (await environments.getEnvironment(change.tx, input.name))
    throw nameExists(`An environment named "${input.name}" already exists.`)
  await environments.insertEnvironment(change.tx, input, change.clock())
  await recordEvent(change, { type: 'environment-created', environment: input.name, data: input })
}

export async function updateEnvironment(change: Change, name: string, update: EnvironmentUpdate): Promise<void> {
  const before = await requireEnvironmentRow(change, name)
  await environments.updateEnvironment(change.tx, name, update.type, update.sortOrder)
  await recordEvent(change, {
    type: 'environment-updated',
    environment: name,
    data: update,
    preData: environments.toEnvironment(before),
  })
}

/** Turns an environment on or off (what new projects get by default). */
export async function setEnvironmentEnabled(change: Change, name: string, enabled: boolean): Promise<void> {
  await requireEnvironmentRow(change, name)
  await environments.setEnvironmentEnabled(change.tx, name, enabled)
  await recordEvent(change, { type: 'environment-updated', environment: name, data: { enabled } })
}

/** Deletes an environment, unless it is protected. */
export async function deleteEnvironment(change: Change, name: string): Promise<void> {
  const row = await requireEnvironmentRow(change, name)
  if (row.protected) throw invalidOperation(`The environment "${name}" is protected and can not be deleted.`)
  await environments.deleteEnvironment(change.tx, name)
  await recordEvent(change, {
    type: 'environment-deleted',
    environment: name,
    preData: environments.toEnvironment(row),
  })
}

// --- Internal helpers ---

async function requireEnvironmentRow(change: Change, name: string): Promise<environments.EnvironmentRow> {
  const row = await environments.getEnvironment(change.tx, name)
  if (!row) throw notFound(`Environment "${name}"`)
  return row
}
