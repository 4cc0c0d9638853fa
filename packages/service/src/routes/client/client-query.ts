import type { H3Event } from 'h3'
import { getQuery } from 'h3'
import { clientToken } from '../../auth.js'
import { badData } from '../../errors.js'
import type { ClientFeaturesQuery } from '../../store/client-features.js'

/**
 * The scope a client-API request reads: its token's environment and projects, narrowed by the
 * `project`, `namePrefix` and `tag` query filters (never widened past the token).
 */
export function clientQuery(event: H3Event): ClientFeaturesQuery {
  const token = clientToken(event)
  const query = getQuery(event)
  const asked = list(query.project)
  const all = token.projects.includes('*')
  const projects = all
    ? asked.length > 0
      ? asked
      : undefined
    : asked.length > 0
      ? asked.filter((p) => token.projects.includes(p))
      : token.projects
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
  return items
    .flatMap((item) => String(item).split(','))
    .map((item) => item.trim())
    .filter(Boolean)
}
