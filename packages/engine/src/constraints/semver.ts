import parseSemver from 'semver/functions/parse.js'
import type { SemVer } from 'semver'
import { type FieldAccessor, type Frame, readField } from '../frame.js'
import { type ParseCache, parseCached } from '../parse-cache.js'
import { type ConstraintSpec, type InvalidLiteral, invalidLiteral } from './types.js'

const COMPARE: Record<string, (order: number) => boolean> = {
  SEMVER_EQ: (order) => order === 0,
  SEMVER_GT: (order) => order > 0,
  SEMVER_GTE: (order) => order >= 0,
  SEMVER_LT: (order) => order < 0,
  SEMVER_LTE: (order) => order <= 0,
}

export interface SemverData {
  field: FieldAccessor
  target: SemVer
  accepts: (order: number) => boolean
  /** The engine's cache of parsed context versions. */
  versions: ParseCache<SemVer>
}

/** Node SDK: the context value must be valid strict semver and must not start with `v`. */
export function parseContextVersion(value: string): SemVer | null {
  return value.startsWith('v') ? null : parseSemver(value)
}

/**
 * An invalid constraint value makes the constraint false. A leading `v` in the constraint value
 * is accepted, as `semver.eq('1.2.3', 'v1.2.3')` is in the Node SDK.
 */
export function compileSemver({ operator, value, field, caches }: ConstraintSpec): SemverData | InvalidLiteral {
  const target = value === undefined ? null : parseSemver(value)
  if (!target) return invalidLiteral('invalid-semver', value, 'semantic version')
  return { field, target, accepts: COMPARE[operator]!, versions: caches.versions }
}

/** SEMVER_*: SemVer 2.0 precedence (prereleases below the release, build metadata ignored). */
export function testSemver(data: SemverData, frame: Frame): boolean {
  const raw = readField(frame, data.field)
  if (raw === undefined || raw === '') return false
  const version = parseCached(data.versions, raw)
  return version !== null && data.accepts(version.compare(data.target))
}
