/**
 * A signal payload as dot paths to its scalar values, the keys action filters use (Unleash's
 * flattenPayload): nested objects join with `.`, array items are `[i]`
 * (`data.items[0].status`); a top-level array starts with `[i]`. Empty objects and arrays add
 * nothing; a scalar payload has no fields. A Map, so keys such as `__proto__` are plain keys.
 */
export function flattenPayload(payload: unknown): Map<string, unknown> {
  const flat = new Map<string, unknown>()
  if (payload !== null && typeof payload === 'object') addFields(flat, payload as object, '')
  return flat
}

function addFields(flat: Map<string, unknown>, value: object, prefix: string): void {
  const isArray = Array.isArray(value)
  for (const [key, child] of Object.entries(value)) {
    const path = isArray ? `${prefix}[${key}]` : prefix ? `${prefix}.${key}` : key
    // A later key wins: a literal "a.b" after { a: { b } } replaces it, as in Unleash.
    if (child !== null && typeof child === 'object') addFields(flat, child, path)
    else flat.set(path, child)
  }
}
