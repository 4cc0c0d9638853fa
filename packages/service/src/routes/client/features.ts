import { createHash } from 'node:crypto'
import type { H3Event } from 'h3'
import { eventHandler, getQuery, getRequestHeader, setResponseHeader, setResponseStatus } from 'h3'
import { clientToken } from '../../auth.js'
import type { ServiceContext } from '../../context.js'
import { badData, notFound } from '../../errors.js'
import { type ClientFeaturesQuery, readClientFeatures } from '../../store/client-features.js'
import { param } from '../http.js'
import type { ApiRouter } from '../api-router.js'

/**
 * `GET /api/client/features`: the token's environment and projects, narrowed by the `project`,
 * `namePrefix` and `tag` query filters. A strong ETag over the body bytes; 304 on If-None-Match.
 */
export function registerClientFeatureRoutes(api: ApiRouter, ctx: ServiceContext): void {
  api.get('/api/client/features', 'client', eventHandler(async (event) => {
    const payload = await readClientFeatures(ctx.db, clientQuery(event))
    return sendWithEtag(event, JSON.stringify(payload))
  }))

  api.get('/api/client/features/:featureName', 'client', eventHandler(async (event) => {
    const name = param(event, 'featureName')
    const payload = await readClientFeatures(ctx.db, clientQuery(event))
    const feature = payload.features.find((candidate) => candidate.name === name)
    if (!feature) throw notFound(`Feature "${name}"`)
    return feature
  }))
}

// --- Internal helpers ---

function clientQuery(event: H3Event): ClientFeaturesQuery {
  const token = clientToken(event)
  const query = getQuery(event)
  const asked = list(query.project)
  const all = token.projects.includes('*')
  const projects = all ? (asked.length > 0 ? asked : undefined) : asked.length > 0 ? asked.filter((p) => token.projects.includes(p)) : token.projects
  const tags = list(query.tag).map((text) => {
    const at = text.indexOf(':')
    if (at <= 0 || at === text.length - 1) throw badData(`query.tag must have the form type:value, got "${text}".`)
    return { type: text.slice(0, at), value: text.slice(at + 1) }
  })
  const namePrefix = typeof query.namePrefix === 'string' && query.namePrefix !== '' ? query.namePrefix : undefined
  return {
    environment: token.environment,
    ...(projects ? { projects } : {}),
    ...(namePrefix ? { namePrefix } : {}),
    ...(tags.length > 0 ? { tags } : {}),
  }
}

function list(value: unknown): string[] {
  const items = Array.isArray(value) ? value : value === undefined ? [] : [value]
  return items.flatMap((item) => String(item).split(',')).map((item) => item.trim()).filter(Boolean)
}

function sendWithEtag(event: H3Event, body: string): string | null {
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`
  setResponseHeader(event, 'etag', etag)
  setResponseHeader(event, 'cache-control', 'no-cache')
  const ifNoneMatch = getRequestHeader(event, 'if-none-match')
  if (ifNoneMatch && ifNoneMatch.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*')) {
    setResponseStatus(event, 304)
    return null
  }
  setResponseHeader(event, 'content-type', 'application/json; charset=utf-8')
  return body
}
