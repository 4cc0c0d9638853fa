import { badData, notFound } from '../errors.js'
import * as apiTokens from '../store/api-tokens.js'
import { newApiTokenSecret } from '../token-secrets.js'
import { type Change, recordEvent } from './change.js'
import { requireEnvironment, requireProject } from './lookups.js'

interface NewApiToken {
  tokenName: string
  type: apiTokens.ApiTokenType
  /** Ignored for an admin token (all environments); `development` when absent. */
  environment?: string | undefined
  /** Ignored for an admin token (all projects); `*` when absent. */
  projects?: string[] | undefined
  expiresAt?: Date | null | undefined
}

/**
 * A new API token in Unleash's form (`project:environment.secret`). Only its hash is stored: the
 * secret is returned once, here. An admin token covers every environment and project; a client
 * or frontend token needs one existing environment, and its projects must exist.
 */
export async function createApiToken(
  change: Change,
  input: NewApiToken,
): Promise<{ row: apiTokens.ApiTokenRow; secret: string }> {
  const admin = input.type === 'admin'
  const environment = admin ? '*' : (input.environment ?? 'development')
  const projects = admin ? ['*'] : (input.projects ?? ['*'])
  if (!admin && environment === '*')
    throw badData('body.environment: a client or frontend token needs one environment.')
  const secret = newApiTokenSecret(projects.length === 1 ? (projects[0] as string) : '[]', environment)
  if (!admin) await requireEnvironment(change.tx, environment)
  for (const project of projects) if (project !== '*') await requireProject(change.tx, project)
  const row = await apiTokens.insertApiToken(
    change.tx,
    { secret, tokenName: input.tokenName, type: input.type, environment, projects, expiresAt: input.expiresAt ?? null },
    change.clock(),
  )
  await recordEvent(change, {
    type: 'api-token-created',
    environment: admin ? null : environment,
    data: apiTokens.toApiToken(row),
  })
  return { row, secret }
}

export async function setApiTokenExpiry(change: Change, id: number, expiresAt: Date): Promise<void> {
  const row = await requireApiToken(change, id)
  await apiTokens.updateApiTokenExpiry(change.tx, row.id, expiresAt)
  await recordEvent(change, {
    type: 'api-token-updated',
    data: { id: row.id, expiresAt },
    preData: apiTokens.toApiToken(row),
  })
}

/** Revokes a token: requests presenting it are refused from now on. */
export async function deleteApiToken(change: Change, id: number): Promise<void> {
  const row = await requireApiToken(change, id)
  await apiTokens.deleteApiToken(change.tx, row.id)
  await recordEvent(change, { type: 'api-token-deleted', preData: apiTokens.toApiToken(row) })
}

// --- Internal helpers ---

async function requireApiToken(change: Change, id: number): Promise<apiTokens.ApiTokenRow> {
  const row = await apiTokens.getApiToken(change.tx, id)
  if (!row) throw notFound(`API token ${id}`)
  return row
}
