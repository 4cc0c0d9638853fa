// Token secrets of every kind (API, personal access, signal): their text form, how they are made,
// hashed (only hashes are stored), compared and shown. The stores are store/api-tokens.ts,
// store/personal-tokens.ts and store/signal-endpoints.ts; INIT_*_API_TOKENS are applied by domain/init-api-tokens.ts.

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

/** Unleash's API token form: `project:environment.secret` (`*` = all projects / environments). */
export interface TokenSpec {
  project: string
  environment: string
  secret: string
}

const TOKEN_FORM = /^([^:\s]+):([^.\s]+)\.(\S+)$/

/** Parses `project:environment.secret`; `undefined` when the text is not in that form. */
export function parseTokenSpec(text: string): TokenSpec | undefined {
  const match = TOKEN_FORM.exec(text.trim())
  if (!match) return undefined
  const [, project = '', environment = '', secret = ''] = match
  return { project, environment, secret }
}

/** Only this hash is stored; lookups hash the presented token and compare in the index. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex')
}

export function randomSecret(bytes = 28): string {
  return randomBytes(bytes).toString('hex')
}

/** A new API token in Unleash's format, e.g. `default:development.9f2c…`. */
export function newApiTokenSecret(project: string, environment: string): string {
  return `${project}:${environment}.${randomSecret()}`
}

/** A new personal access token: `user:<64 hex>`. */
export function newPersonalTokenSecret(): string {
  return `user:${randomSecret(32)}`
}

/** A new signal token secret: 64 hex characters, shown once; only its SHA-256 hash is stored. */
export function newSignalTokenSecret(): string {
  return randomSecret(32)
}

/**
 * The candidate whose stored hash is the hash of `secret`. Every candidate is compared with
 * `timingSafeEqual`, none skipped, so the time taken says nothing about the secret.
 */
export function matchSignalToken<T extends { token_hash: string }>(
  secret: string,
  candidates: readonly T[],
): T | undefined {
  const presented = Buffer.from(hashSecret(secret), 'hex')
  let match: T | undefined
  for (const candidate of candidates) {
    const stored = Buffer.from(candidate.token_hash, 'hex')
    const equal = stored.length === presented.length && timingSafeEqual(stored, presented)
    if (equal && !match) match = candidate
  }
  return match
}

/** What a listing may show of a token: its scope and the first characters of the secret. */
export function displayToken(secret: string): string {
  const dot = secret.indexOf('.')
  const visible = dot >= 0 ? secret.slice(0, dot + 1 + 4) : secret.slice(0, 9)
  return `${visible}…`
}
