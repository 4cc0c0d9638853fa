import type { ServiceConfig } from '../config.js'
import type { Clock } from '../service-context.js'
import type { Database } from '../db/database.js'
import type { Logger } from '../logger.js'
import { deleteUnlistedInitTokens, insertApiToken, toApiToken } from '../store/api-tokens.js'
import { getEnvironment } from '../store/environments.js'
import { getProject } from '../store/projects.js'
import { recordEvent } from './change.js'

/** Serializes this step across service instances starting together on one PostgreSQL. */
const INIT_TOKENS_LOCK = 424243

/**
 * Makes the API tokens match `INIT_ADMIN_API_TOKENS` and `INIT_CLIENT_API_TOKENS`, so a
 * deployment needs no manual step: a listed token is inserted unless present (idempotent), and
 * a token inserted from these variables that is no longer listed is deleted, with an
 * `api-token-deleted` event, so taking a leaked token off the list revokes it. Tokens made
 * through the API or the demo are never touched. The whole `project:environment.secret` text
 * is the token, as in Unleash. Every instance on one database must list the same tokens: each
 * start applies its own list.
 */
export async function syncInitApiTokens(
  db: Database,
  config: ServiceConfig,
  clock: Clock,
  logger: Logger,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(${INIT_TOKENS_LOCK})`)
    const listed: string[] = []
    for (const token of config.initAdminTokens) {
      const secret = `${token.project}:${token.environment}.${token.secret}`
      listed.push(secret)
      await insertApiToken(
        tx,
        {
          secret,
          tokenName: 'admin-init-token',
          type: 'admin',
          environment: '*',
          projects: ['*'],
          initVariable: 'INIT_ADMIN_API_TOKENS',
        },
        clock(),
      )
    }
    for (const token of config.initClientTokens) {
      const secret = `${token.project}:${token.environment}.${token.secret}`
      listed.push(secret)
      if (!(await getEnvironment(tx, token.environment))) {
        throw new Error(`INIT_CLIENT_API_TOKENS: the environment "${token.environment}" does not exist.`)
      }
      if (token.project !== '*' && !(await getProject(tx, token.project))) {
        throw new Error(`INIT_CLIENT_API_TOKENS: the project "${token.project}" does not exist.`)
      }
      await insertApiToken(
        tx,
        {
          secret,
          tokenName: 'client-init-token',
          type: 'client',
          environment: token.environment,
          projects: [token.project],
          initVariable: 'INIT_CLIENT_API_TOKENS',
        },
        clock(),
      )
    }
    for (const row of await deleteUnlistedInitTokens(tx, listed)) {
      await recordEvent(
        { tx, actor: { name: 'system' }, clock },
        {
          type: 'api-token-deleted',
          environment: row.type === 'admin' ? null : row.environment,
          preData: toApiToken(row),
        },
      )
      logger.info(`deleted API token ${row.id} (${row.display}): it is no longer listed in ${row.init_variable}`)
    }
  })
}
