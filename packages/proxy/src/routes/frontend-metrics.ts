// POST /api/frontend/client/metrics and /client/register for frontend tokens, as Unleash 8.2
// answers them: 200 `OK` (text/plain). Counts go to the caller's scope, whose sync sends them
// upstream with its client token; a registration is checked and not forwarded (the proxy
// registers itself with each sync's token).
import { isObject } from '../http/body.js'
import { ProxyError } from '../http/errors.js'
import { sendText } from '../http/respond.js'
import type { RouteCall } from '../routing/route-declaration.js'
import { readJson, validateMetrics } from './client-metrics.js'


function requireAppName(body: unknown): Record<string, unknown> {
  if (!isObject(body) || typeof body.appName !== 'string' || body.appName === '') {
    throw new ProxyError('API_BAD_REQUEST', 'The request body must be a JSON object with an "appName" string')
  }
  return body
}

export async function handleFrontendMetrics(call: RouteCall): Promise<void> {
  const body = requireAppName(await readJson(call.event))
  // The browser SDK sends an instanceId; Unleash does not require one.
  const toggles = validateMetrics({ instanceId: 'frontend', ...body })
  call.event.context.caller!.view.usage.merge(toggles)
  sendText(call.res, 200, 'text/plain; charset=utf-8', 'OK')
}

export async function handleFrontendRegister(call: RouteCall): Promise<void> {
  requireAppName(await readJson(call.event))
  sendText(call.res, 200, 'text/plain; charset=utf-8', 'OK')
}
