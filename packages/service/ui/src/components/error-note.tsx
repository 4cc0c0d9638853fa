import { useEffect, useRef, useState } from 'preact/hooks'
import type { ApiError } from '../api.ts'
import { Button } from './controls.tsx'

/** What each error of the service (`ERROR_STATUS` in src/errors.ts) means, in plain words. */
const HEADINGS: Record<string, string> = {
  ValidationError: 'Please check the input',
  BadDataError: 'The service could not accept this',
  ExceedsLimitError: 'A limit was reached',
  AuthenticationRequired: 'Sign-in needed',
  InvalidTokenError: 'The token was not accepted',
  NoAccessError: 'Not allowed',
  InvalidOperationError: 'Not allowed',
  NotFoundError: 'Not found',
  NameExistsError: 'That name is taken',
  ConflictError: 'This conflicts with something else',
  PayloadTooLargeError: 'Too large',
  ContentTypeError: 'Wrong content type',
  RateLimitError: 'Too many requests',
  NetworkError: 'No connection',
  UnknownError: 'The service failed',
}

export function errorHeading(error: ApiError): string {
  return HEADINGS[error.name] ?? (error.status >= 500 ? 'The service failed' : 'Something went wrong')
}

/**
 * An API error where it happened: heading, the service's message, and each detail when there is
 * more than the message says; a failed load (hooks.ts useLoad) offers to try again in place. Takes focus when it appears, so keyboard and screen-reader users
 * land on it (role="alert" announces it too).
 */
export function ErrorNote({
  error,
  focus = true,
  class: className = '',
}: {
  error: ApiError | undefined
  focus?: boolean
  class?: string
}) {
  const ref = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (error && focus) ref.current?.focus({ preventScroll: false })
  }, [error, focus])
  if (!error) return null
  const details = error.details.filter((detail) => detail.message && !error.message.includes(detail.message))
  return (
    <div class={`error-note ${className}`} role="alert" tabIndex={-1} ref={ref} data-error={error.name}>
      <strong>{errorHeading(error)}:</strong> {error.message}
      {details.length > 0 && (
        <ul>
          {details.map((detail, i) => (
            <li key={i}>{detail.message}</li>
          ))}
        </ul>
      )}
      {error.retry && <RetryButton retry={error.retry} />}
    </div>
  )
}

function RetryButton({ retry }: { retry: () => Promise<void> }) {
  const [busy, setBusy] = useState(false)
  const mounted = useRef(true)
  useEffect(() => () => void (mounted.current = false), [])
  const onClick = async () => {
    setBusy(true)
    try {
      await retry()
    } finally {
      if (mounted.current) setBusy(false)
    }
  }
  return (
    <Button size="small" class="retry" busy={busy} onClick={onClick}>
      Try again
    </Button>
  )
}
