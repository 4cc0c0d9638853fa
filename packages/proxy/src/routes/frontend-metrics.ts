// POST /api/frontend/client/metrics and /client/register for frontend tokens, as Unleash 8.2
// answers them: 200 `OK` (text/plain); metrics without an appName are its 400 BadDataError. Counts go to the caller's scope, whose sync sends them
// upstream with its client token, under the posting app, which they register as a frontend SDK
// (as Unleash registers the apps its frontend API hears from).
import { isObject } from '../http/body.js'
import { badDataError, ProxyError } from '../http/errors.js'
import { sendText } from '../http/respond.js'
import type { H3Event } from 'h3'
import { postedApp, readJson, validateMetrics } from './client-metrics.js'

function requireAppName(body: unknown): Record<string, unknown> {
  if (!isObject(body) || typeof body.appName !== 'string' || body.appName === '') {
    throw new ProxyError('API_BAD_REQUEST', 'The request body must be a JSON object with an "appName" string')
  }
  return body
}

/** Unleash 8.2's 400 for metrics without an `appName` (its schema's `required`, then `minLength`). */
function checkMetricsAppName(body: unknown): unknown {
  if (!isObject(body)) return body
  const path = '/body/appName'
  if (body.appName === undefined)
    throw badDataError([
      { path, message: `The \`${path}\` property is required. It was not present on the data you sent.` },
    ])
  if (body.appName === '')
    throw badDataError([
      { message: `The \`${path}\` property must NOT have fewer than 1 characters. You sent "".`, path },
    ])
  return body
}

export async function handleFrontendMetrics(event: H3Event): Promise<void> {
  const body = requireAppName(checkMetricsAppName(await readJson(event)))
  // The browser SDK sends an instanceId; Unleash does not require one.
  const posted = { instanceId: 'frontend', ...body }
  const toggles = validateMetrics(posted)
  const { view, token } = event.context.caller!
  const app = postedApp(posted, token.environment, 'frontend')
  view.usage.merge(toggles, app)
  view.usage.register({ ...app, sdkType: 'frontend', sdkVersion: sdkVersionOf(event, body), strategies: [] }, true)
  sendText(event.node.res, 200, 'text/plain; charset=utf-8', 'OK')
}

export async function handleFrontendRegister(event: H3Event): Promise<void> {
  const body = requireAppName(await readJson(event))
  const { view, token } = event.context.caller!
  const app = postedApp(body, token.environment, 'frontend')
  view.usage.register({ ...app, sdkType: 'frontend', sdkVersion: sdkVersionOf(event, body), strategies: [] })
  sendText(event.node.res, 200, 'text/plain; charset=utf-8', 'OK')
}

/** The SDK's version as it says it: the body's `sdkVersion`, else its `unleash-sdk` header (Unleash needs one to list a frontend app). */
function sdkVersionOf(event: H3Event, body: Record<string, unknown>): string {
  if (typeof body.sdkVersion === 'string') return body.sdkVersion
  const header = event.node.req.headers['unleash-sdk']
  return typeof header === 'string' ? header : 'unknown'
}
