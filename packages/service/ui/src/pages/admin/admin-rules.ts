// The API's rule for project ids and environment names, from @vexil/service/admin-rules (the
// schema's own constants, without zod), checked as the person types.
import {
  URL_SAFE_NAME_MAX_LENGTH as MAX_LENGTH,
  URL_SAFE_NAME_PATTERN as URL_SAFE,
  URL_SAFE_NAME_RULE,
} from '@vexil/service/admin-rules'

/** The problem with `value` as a project id or environment name, in words; undefined when fine. */
export function urlSafeNameProblem(what: string, value: string): string | undefined {
  if (value === '') return `${what} is required.`
  if (value.length > MAX_LENGTH) return `${what} must be at most ${MAX_LENGTH} characters.`
  if (!URL_SAFE.test(value)) return `${what} ${URL_SAFE_NAME_RULE}.`
  return undefined
}

/** The id the API would make from a project's name (routes/admin/projects.ts, idFromName). */
export function idFromName(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9\-._~]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_LENGTH)
}
