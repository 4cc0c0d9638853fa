import { type H3Event, getRequestHeader } from 'h3'
import { badData, ServiceError } from '../errors.js'
import { readBodyBytes } from '../request-body.js'

/** Deeper JSON is refused: PGlite cannot read such jsonb back, and no webhook needs it. */
const MAX_PAYLOAD_DEPTH = 100

/**
 * The signal's body as JSON: `{}` when there is none (Unleash stores the column default),
 * otherwise a JSON media type (415), at most `limitBytes` bytes, counted as they arrive (413),
 * valid JSON (400) that the database can store (400: `\u0000`, lone surrogates, nesting over 100).
 */
export async function readSignalPayload(event: H3Event, limitBytes: number): Promise<unknown> {
  const length = getRequestHeader(event, 'content-length')
  const chunked = getRequestHeader(event, 'transfer-encoding') !== undefined
  if (!chunked && (length === undefined || Number(length) === 0)) return {}
  if (!isJson(getRequestHeader(event, 'content-type'))) {
    throw new ServiceError(
      'ContentTypeError',
      'A signal body must be JSON: send it with Content-Type: application/json.',
    )
  }
  if (Number(length) > limitBytes) throw tooLarge(limitBytes)
  const bytes = await readBodyBytes(event.node.req, limitBytes, () => tooLarge(limitBytes))
  if (bytes.length === 0) return {}
  let payload: unknown
  try {
    payload = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
  } catch {
    throw badData('The signal body is not valid JSON.')
  }
  const problem = unstorable(payload)
  if (problem) throw badData(`The signal body cannot be stored: ${problem}.`)
  return payload
}

// --- Internal helpers ---

function isJson(contentType: string | undefined): boolean {
  const type = contentType?.split(';')[0]?.trim().toLowerCase() ?? ''
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'))
}

function tooLarge(limitBytes: number): ServiceError {
  return new ServiceError('PayloadTooLargeError', `The signal body is larger than the limit of ${limitBytes} bytes.`)
}

/** In unicode mode this matches only unpaired surrogates: a pair is one code point. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u

function unstorableText(text: string): string | undefined {
  if (text.includes('\u0000')) return '\\u0000'
  if (LONE_SURROGATE.test(text)) return 'a lone surrogate (\\ud800-\\udfff)'
  return undefined
}

/** Why PostgreSQL (or PGlite) could not store this JSON, if it could not. */
function unstorable(payload: unknown): string | undefined {
  const stack: [unknown, number][] = [[payload, 0]]
  for (let item = stack.pop(); item; item = stack.pop()) {
    const [value, depth] = item
    if (typeof value === 'string') {
      const problem = unstorableText(value)
      if (problem) return `a text contains ${problem}`
    } else if (value !== null && typeof value === 'object') {
      if (depth >= MAX_PAYLOAD_DEPTH) return `it is nested deeper than ${MAX_PAYLOAD_DEPTH} levels`
      for (const [key, child] of Object.entries(value)) {
        const problem = unstorableText(key)
        if (problem) return `a key contains ${problem}`
        stack.push([child, depth + 1])
      }
    }
  }
  return undefined
}
