import type { ApiResponse, TestService } from './service.js'

export interface TestEndpoint {
  id: number
  name: string
  /** The secrets of its tokens, in the order of `tokenNames`. */
  tokens: string[]
}

/** Creates a signal endpoint and its tokens through the admin API. */
export async function createSignalEndpoint(
  service: TestService,
  name: string,
  tokenNames = ['primary'],
): Promise<TestEndpoint> {
  const endpoint = await service.api('POST', '/api/admin/signal-endpoints', { body: { name } })
  if (endpoint.status !== 201)
    throw new Error(`creating endpoint ${name}: ${endpoint.status} ${JSON.stringify(endpoint.body)}`)
  const tokens: string[] = []
  for (const tokenName of tokenNames) {
    const made = await service.api('POST', `/api/admin/signal-endpoints/${endpoint.body.id}/tokens`, {
      body: { name: tokenName },
    })
    if (made.status !== 201) throw new Error(`creating token ${tokenName}: ${made.status} ${JSON.stringify(made.body)}`)
    tokens.push(made.body.token)
  }
  return { id: endpoint.body.id, name, tokens }
}

/**
 * POSTs a signal as an external system would, with no admin token: `Bearer <token>`, and
 * `Content-Type: application/json` when there is a body (objects are JSON-encoded).
 */
export function sendSignal(
  service: TestService,
  endpointName: string,
  token: string,
  body?: string | object,
  headers: Record<string, string> = {},
): Promise<ApiResponse> {
  const text = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body)
  return service.api('POST', `/api/signal-endpoint/${endpointName}`, {
    token: null,
    headers: {
      authorization: `Bearer ${token}`,
      ...(text !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    ...(text !== undefined ? { body: text } : {}),
  })
}

export { waitFor } from '@vexil/test-fixtures/wait-for.ts'
