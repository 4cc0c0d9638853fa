import { type H3Event, getRouterParam, send, setResponseHeader, setResponseStatus } from 'h3'
import { actorOf } from '../auth.js'
import type { ServiceContext } from '../service-context.js'
import type { Change } from '../domain/change.js'
import { badData } from '../errors.js'

/** A path parameter, URL-decoded (flag names may contain `~` or `.`). */
export function param(event: H3Event, name: string): string {
  return getRouterParam(event, name, { decode: true }) ?? ''
}

/** A numeric path parameter (segment, user and token ids); 400 when it is not a safe integer. */
export function intParam(event: H3Event, name: string): number {
  const text = param(event, name)
  // The value is not repeated: whatever was sent in its place (a secret, markup) stays out of the answer.
  if (!/^\d{1,15}$/.test(text))
    throw badData(`The path parameter "${name}" must be a whole number of at most 15 digits.`)
  return Number(text)
}

/** Answers with an empty body and `status` (h3 would turn a bare `null` into 204). */
export function empty(event: H3Event, status = 200): Promise<void> {
  setResponseStatus(event, status)
  return send(event, '')
}

/**
 * 201 with a `Location` header, as Unleash answers creations: the path below `/api/admin/`,
 * each segment percent-encoded (a tag value `日本語` or `a/b` is one segment, never a broken header).
 */
export function created<T>(event: H3Event, location: readonly (string | number)[], body: T): T {
  setResponseStatus(event, 201)
  setResponseHeader(event, 'location', location.map((segment) => encodeURIComponent(segment)).join('/'))
  return body
}

/** Runs a domain operation (a change and its event-log rows) in one transaction, as the request's actor. */
export function change<T>(ctx: ServiceContext, event: H3Event, fn: (change: Change) => Promise<T>): Promise<T> {
  const actor = actorOf(event)
  return ctx.db.transaction((tx) => fn({ tx, actor, clock: ctx.clock }))
}
