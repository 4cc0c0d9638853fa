/** Row helpers shared by the stores: dates out as ISO strings, JSON in as text. */

export function iso(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null
  return (value instanceof Date ? value : new Date(value)).toISOString()
}

/** jsonb parameters are sent as JSON text; both drivers cast it on insert. */
export function json(value: unknown): string {
  return JSON.stringify(value ?? null)
}
