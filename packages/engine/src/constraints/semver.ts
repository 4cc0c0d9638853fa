import { readField } from '../context.js'
import parseSemver from 'semver/functions/parse.js'
import type { SemVer } from 'semver'
import type { ConstraintSpec, Predicate } from './types.js'

type Compare = (order: number) => boolean

const COMPARE: Record<string, Compare> = {
  SEMVER_EQ: (order) => order === 0,
  SEMVER_GT: (order) => order > 0,
  SEMVER_GTE: (order) => order >= 0,
  SEMVER_LT: (order) => order < 0,
  SEMVER_LTE: (order) => order <= 0,
}

// Context versions repeat across the flags of one request, so parses are cached (bounded).
const CACHE_LIMIT = 1000
const parsed = new Map<string, SemVer | null>()

/** Node SDK: the context value must be valid strict semver and must not start with `v`. */
function parseContextVersion(value: string): SemVer | null {
  let version = parsed.get(value)
  if (version === undefined) {
    version = value.startsWith('v') ? null : parseSemver(value)
    if (parsed.size >= CACHE_LIMIT) parsed.clear()
    parsed.set(value, version)
  }
  return version
}

/**
 * SEMVER_EQ/GT/GTE/LT/LTE by SemVer 2.0 precedence (prereleases sort below the release, build
 * metadata ignored). An invalid constraint value is false; a leading `v` in the constraint value
 * is accepted, as `semver.eq('1.2.3', 'v1.2.3')` is in the Node SDK.
 */
export function compileSemver({ operator, value, field }: ConstraintSpec): Predicate {
  const compare = COMPARE[operator]!
  const target = value === undefined ? null : parseSemver(value)
  if (!target) return () => false
  return (frame) => {
    const raw = readField(frame, field)
    if (raw === undefined || raw === '') return false
    const version = parseContextVersion(raw)
    return version !== null && compare(version.compare(target))
  }
}
