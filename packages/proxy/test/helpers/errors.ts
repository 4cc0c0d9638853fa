import { ProxyError, type ProxyErrorCode } from '../../src/http/errors.js'

/** Whether `error` is the proxy's typed error with `code`. */
export function isProxyError(error: unknown, code: ProxyErrorCode): boolean {
  return error instanceof ProxyError && error.code === code
}
