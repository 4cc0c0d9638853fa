// The admin API client: every request sends `Authorization: <token>` and JSON; every failure
// becomes an ApiError carrying the service's `{ name, message, details }` (or a plain-words one
// when the service could not be reached or did not answer JSON).
import { createContext } from 'preact'
import { useContext } from 'preact/hooks'

export interface ErrorDetail {
  message: string
  path?: string
  description?: string
}

export class ApiError extends Error {
  override readonly name: string
  readonly status: number
  readonly details: ErrorDetail[]
  /** Set on a failed load (hooks.ts useLoad): loads again, so the note can offer to retry in place. */
  readonly retry: (() => Promise<void>) | undefined

  constructor(status: number, name: string, message: string, details: ErrorDetail[] = [], retry?: () => Promise<void>) {
    super(message)
    this.status = status
    this.name = name
    this.details = details
    this.retry = retry
  }

  /** The same error, with a way to load again. */
  withRetry(retry: () => Promise<void>): ApiError {
    return new ApiError(this.status, this.name, this.message, this.details, retry)
  }
}

export interface Api {
  get<T>(path: string): Promise<T>
  post<T>(path: string, body?: unknown): Promise<T>
  put<T>(path: string, body?: unknown): Promise<T>
  /** A JSON Patch (RFC 6902), as Unleash's PATCH routes take: only the fields it names change. */
  patch<T>(path: string, operations: JsonPatchOperation[]): Promise<T>
  delete<T>(path: string): Promise<T>
}

export interface JsonPatchOperation {
  op: 'add' | 'remove' | 'replace'
  path: string
  value?: unknown
}

export interface ApiOptions {
  token: string
  /** Called on any 401: the token is no longer accepted (deleted, expired). */
  onUnauthorized?: (error: ApiError) => void
}

/** A client bound to one token. */
export function createApi({ token, onUnauthorized }: ApiOptions): Api {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    try {
      return await request<T>(token, method, path, body)
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) onUnauthorized?.(error)
      throw error
    }
  }
  return {
    get: (path) => call('GET', path),
    post: (path, body) => call('POST', path, body),
    put: (path, body) => call('PUT', path, body),
    patch: (path, operations) => call('PATCH', path, operations),
    delete: (path) => call('DELETE', path),
  }
}

/** One request with `token`; resolves with the parsed JSON body (undefined when empty). */
export async function request<T>(token: string, method: string, path: string, body?: unknown): Promise<T> {
  let response: Response
  try {
    response = await fetch(path, {
      method,
      headers: {
        authorization: token,
        accept: 'application/json',
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    })
  } catch {
    throw new ApiError(0, 'NetworkError', 'The service could not be reached. Check that it is running, then try again.')
  }
  const text = await response.text()
  let parsed: unknown
  try {
    parsed = text ? JSON.parse(text) : undefined
  } catch {
    parsed = undefined
  }
  if (!response.ok) {
    const error = (parsed ?? {}) as { name?: unknown; message?: unknown; details?: unknown }
    throw new ApiError(
      response.status,
      typeof error.name === 'string' ? error.name : `HTTP ${response.status}`,
      typeof error.message === 'string'
        ? error.message
        : `The service answered ${`${response.status} ${response.statusText || ''}`.trim()}.`,
      Array.isArray(error.details) ? (error.details as ErrorDetail[]) : [],
    )
  }
  return parsed as T
}

/** Encodes one path segment (flag names may hold `.` or `~`; project ids anything URL-safe). */
export const seg = (value: string | number): string => encodeURIComponent(String(value))

export const ApiContext = createContext<Api | null>(null)

export function useApi(): Api {
  const api = useContext(ApiContext)
  if (!api) throw new Error('useApi outside a signed-in session')
  return api
}
