/**
 * Typed service errors. Each has a code; `ERROR_STATUS` is the one table that maps a code to an
 * HTTP status. Bodies follow Unleash: `{ id, name, message, details? }`, `name` being the code.
 */
export const ERROR_STATUS = {
  BadDataError: 400,
  ValidationError: 400,
  ExceedsLimitError: 400,
  AuthenticationRequired: 401,
  InvalidTokenError: 401,
  NoAccessError: 403,
  InvalidOperationError: 403,
  NotFoundError: 404,
  NameExistsError: 409,
  ConflictError: 409,
  PayloadTooLargeError: 413,
  ContentTypeError: 415,
  RateLimitError: 429,
} as const satisfies Record<string, number>

export type ErrorCode = keyof typeof ERROR_STATUS

export interface ErrorDetail {
  message: string
  description?: string
  path?: string
}

export class ServiceError extends Error {
  /** Brand checked by `isServiceError`, so the check survives two bundled copies. */
  static readonly __vexil_service_error__ = true
  readonly code: ErrorCode
  readonly details: ErrorDetail[] | undefined

  constructor(code: ErrorCode, message: string, details?: ErrorDetail[]) {
    super(message)
    this.name = code
    this.code = code
    this.details = details
  }

  get status(): number {
    return ERROR_STATUS[this.code]
  }
}

export function isServiceError(value: unknown): value is ServiceError {
  const ctor = (value as { constructor?: { __vexil_service_error__?: boolean } } | null)?.constructor
  return ctor?.__vexil_service_error__ === true
}

export const notFound = (what: string): ServiceError => new ServiceError('NotFoundError', `${what} does not exist.`)

export const badData = (message: string, details?: ErrorDetail[]): ServiceError =>
  new ServiceError('BadDataError', message, details)

export const nameExists = (message: string): ServiceError => new ServiceError('NameExistsError', message)

export const invalidOperation = (message: string): ServiceError => new ServiceError('InvalidOperationError', message)

/** Unleash's resource-limit error (400), naming the limit. */
export const exceedsLimit = (resource: string, limit: number): ServiceError =>
  new ServiceError(
    'ExceedsLimitError',
    `Failed to create ${resource}. You can't create more than the established limit of ${limit}.`,
  )
