// POST /api/frontend/client/metrics and /client/register for frontend tokens, as Unleash 8.2
// answers them: 200 `OK` (text/plain); metrics without an appName are its 400 BadDataError. Counts go to the caller's scope, whose sync sends them
// upstream with its client token; a registration is checked and not forwarded (the proxy
// registers itself with each sync's token).
import { isObject } from '../http/body.js'
import { badDataError, ProxyError } from '../http/errors.js'
import { sendText } from '../http/respond.js'
import type { H3Event } from 'h3'
import { readJson, validateMetrics } from './client-metrics.js'


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
  if (body.appName === undefined) throw badDataError([{ path, message: `The \`${path}\` property is required. It was not present on the data you sent.` }])
  if (body.appName === '') throw badDataError([{ message: `The \`${path}\` property must NOT have fewer than 1 characters. You sent "".`, path }])
  return body
}

export async function handleFrontendMetrics(event: H3Event): Promise<void> {
  const body = requireAppName(checkMetricsAppName(await readJson(event)))
  // The browser SDK sends an instanceId; Unleash does not require one.
  const toggles = validateMetrics({ instanceId: 'frontend', ...body })
  event.context.caller!.view.usage.merge(toggles)
  sendText(event.node.res, 200, 'text/plain; charset=utf-8', 'OK')
}

export async function handleFrontendRegister(event: H3Event): Promise<void> {
  requireAppName(await readJson(event))
  sendText(event.node.res, 200, 'text/plain; charset=utf-8', 'OK')
}
