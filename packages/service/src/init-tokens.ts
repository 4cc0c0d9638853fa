import type { ServiceConfig } from './config.js'
import type { Clock } from './context.js'
import type { Database } from './db/database.js'
import { getEnvironment } from './store/environments.js'
import { getProject } from './store/projects.js'
import { insertApiToken } from './store/api-tokens.js'

/**
 * Inserts `INIT_ADMIN_API_TOKENS` and `INIT_CLIENT_API_TOKENS` (idempotent: a token already
 * present is left as it is), so a deployment needs no manual step. The whole
 * `project:environment.secret` text is the token, as in Unleash.
 */
export async function insertInitTokens(db: Database, config: ServiceConfig, clock: Clock): Promise<void> {
  await db.transaction(async (tx) => {
    for (const token of config.initAdminTokens) {
      const secret = `${token.project}:${token.environment}.${token.secret}`
      await insertApiToken(tx, { secret, tokenName: 'admin-init-token', type: 'admin', environment: '*', projects: ['*'] }, clock())
    }
    for (const token of config.initClientTokens) {
      const secret = `${token.project}:${token.environment}.${token.secret}`
      if (!(await getEnvironment(tx, token.environment))) {
        throw new Error(`INIT_CLIENT_API_TOKENS: the environment "${token.environment}" does not exist.`)
      }
      if (token.project !== '*' && !(await getProject(tx, token.project))) {
        throw new Error(`INIT_CLIENT_API_TOKENS: the project "${token.project}" does not exist.`)
      }
      await insertApiToken(
        tx,
        { secret, tokenName: 'client-init-token', type: 'client', environment: token.environment, projects: [token.project] },
        clock(),
      )
    }
  })
}
