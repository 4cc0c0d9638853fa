// The service's admin API as the cross-package tests call it: one request with the admin token,
// the test failing on a non-2xx answer (naming the call and the body).
import { expect } from 'vitest'

/** `(method, path, body?) => parsed JSON` against `baseUrl()` (read per call: the service starts in beforeAll). */
export function serviceAdmin(baseUrl: () => string, adminToken: string) {
  return async (method: string, path: string, body?: unknown): Promise<any> => {
    const response = await fetch(`${baseUrl()}${path}`, {
      method,
      headers: { authorization: adminToken, 'content-type': 'application/json' },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    })
    const text = await response.text()
    expect(response.status, `${method} ${path}: ${text}`).toBeLessThan(300)
    return text ? JSON.parse(text) : undefined
  }
}
