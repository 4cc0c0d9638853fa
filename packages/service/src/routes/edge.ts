import { eventHandler } from 'h3'
import { z } from 'zod'
import type { ServiceContext } from '../service-context.js'
import { findApiTokensBySecrets } from '../store/api-tokens.js'
import { readBodyWith } from '../validate.js'
import type { ApiRouter } from './api-router.js'

/** Edge batches what it has seen; a bound keeps one request to one bounded query. */
const MAX_TOKENS_PER_REQUEST = 1_000

const validateSchema = z.object({
  tokens: z
    .array(z.string().max(1_024))
    .max(MAX_TOKENS_PER_REQUEST, `may list at most ${MAX_TOKENS_PER_REQUEST} tokens`),
})

/**
 * `POST /edge/validate` (docs/edge-compatibility.md, section 2): the valid client and frontend tokens
 * among those given, in request order, with type, environment and projects, so a proxy in
 * front (Vexil or Edge) learns each token's scope. No credential, as Unleash 8.2 and as Edge
 * calls it. Unlike Unleash, admin tokens are never listed: no proxy serves them, and an
 * anonymous caller must not learn which admin secrets work. `backend` tokens are listed as
 * `client`, the type Unleash 8.2 answers and every Edge version reads.
 */
export function registerEdgeRoutes(api: ApiRouter, ctx: ServiceContext): void {
  api.post(
    '/edge/validate',
    'public',
    eventHandler(async (event) => {
      const { tokens } = await readBodyWith(event, validateSchema)
      const wanted = [...new Set(tokens)]
      const found = wanted.length === 0 ? new Map() : await findApiTokensBySecrets(ctx.db, wanted)
      const now = ctx.clock().getTime()
      const valid = wanted.flatMap((token) => {
        const row = found.get(token)
        if (!row || row.type === 'admin' || (row.expires_at && row.expires_at.getTime() <= now)) return []
        return [
          {
            token,
            type: row.type === 'frontend' ? 'frontend' : 'client',
            projects: row.projects,
            environment: row.environment,
          },
        ]
      })
      return { tokens: valid }
    }),
  )
}
