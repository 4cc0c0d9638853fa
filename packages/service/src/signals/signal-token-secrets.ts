import { timingSafeEqual } from 'node:crypto'
import { hashSecret, randomSecret } from '../token-secrets.js'

/** A new signal token secret: 64 hex characters, shown once; only its SHA-256 hash is stored. */
export function newSignalTokenSecret(): string {
  return randomSecret(32)
}

/**
 * The candidate whose stored hash is the hash of `secret`. Every candidate is compared with
 * `timingSafeEqual`, none skipped, so the time taken says nothing about the secret.
 */
export function matchSignalToken<T extends { token_hash: string }>(secret: string, candidates: readonly T[]): T | undefined {
  const presented = Buffer.from(hashSecret(secret), 'hex')
  let match: T | undefined
  for (const candidate of candidates) {
    const stored = Buffer.from(candidate.token_hash, 'hex')
    const equal = stored.length === presented.length && timingSafeEqual(stored, presented)
    if (equal && !match) match = candidate
  }
  return match
}
