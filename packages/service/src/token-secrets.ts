// Token secrets of every kind (API, personal access, signal): their text form, how they are made,
// hashed (only hashes are stored), compared and shown. The stores are store/api-tokens.ts and
// store/personal-tokens.ts; INIT_*_API_TOKENS are applied by domain/init-api-tokens.ts.

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

/** Constant-time comparison of two secrets (hashed first, so lengths never leak). */
export function secretsEqual(a: string, b: string): boolean {
  return timingSafeEqual(Buffer.from(hashSecret(a), 'hex'), Buffer.from(hashSecret(b), 'hex'))
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

/** What a listing may show of a token: its scope and the first characters of the secret. */
export function displayToken(secret: string): string {
  const dot = secret.indexOf('.')
  const visible = dot >= 0 ? secret.slice(0, dot + 1 + 4) : secret.slice(0, 9)
  return `${visible}…`
}
