// The API's rule for project ids and environment names (`urlSafeName` in
// src/schemas/constraint.ts), checked as the person types. A copy: @vexil/service/admin-rules
// does not export it yet, and importing the schema would bundle zod into the page.
const URL_SAFE = /^[a-zA-Z0-9\-._~]+$/
const MAX_LENGTH = 100

/** The problem with `value` as a project id or environment name, in words; undefined when fine. */
export function urlSafeNameProblem(what: string, value: string): string | undefined {
  if (value === '') return `${what} is required.`
  if (value.length > MAX_LENGTH) return `${what} must be at most ${MAX_LENGTH} characters.`
  if (!URL_SAFE.test(value)) return `${what} must be URL-friendly: letters, digits, "-", ".", "_" and "~".`
  return undefined
}

/** The id the API would make from a project's name (routes/admin/projects.ts, idFromName). */
export function idFromName(name: string): string {
  return name.trim().toLowerCase().replace(/[^a-z0-9\-._~]+/g, '-').replace(/^-+|-+$/g, '').slice(0, MAX_LENGTH)
}
