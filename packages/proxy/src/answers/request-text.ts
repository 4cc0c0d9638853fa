import type { H3Event } from 'h3'
import { assertJsonContentType, hasBody } from '../http/body.js'
import { readBodyText } from '../http/read-body.js'
import type {} from './request-state.js'

/**
 * The part of an evaluation request its answer depends on, as sent: a GET's or HEAD's query
 * string, a POST's body (415 unless JSON; none is ''). The query string of a POST is ignored, as
 * the old proxy ignored it.
 */
export function requestText(event: H3Event): string | Promise<string> {
  if (event.method !== 'POST') return event.context.url?.search ?? ''
  if (!hasBody(event)) return ''
  assertJsonContentType(event.node.req)
  return readBodyText(event)
}

/** `made`, then `then` over it: synchronously when `made` is not a promise (a GET has no body to wait for). */
export function afterText<T>(made: string | Promise<string>, then: (text: string) => T): T | Promise<T> {
  return typeof made === 'string' ? then(made) : made.then(then)
}
