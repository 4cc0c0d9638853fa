// The service's admin API as the cross-package tests call it (the CLI's and the OpenFeature
// provider's): one request with the admin token, throwing on a non-2xx answer (naming the call,
// the status and the body).

/** `(method, path, body?) => parsed JSON` against `baseUrl()` (read per call: the service starts in beforeAll). */
export function serviceAdmin(baseUrl: () => string, adminToken: string) {
  return async (method: string, path: string, body?: unknown): Promise<any> => {
    const response = await fetch(`${baseUrl()}${path}`, {
      method,
      headers: { authorization: adminToken, 'content-type': 'application/json' },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    })
    const text = await response.text()
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`)
    return text ? JSON.parse(text) : undefined
  }
}
