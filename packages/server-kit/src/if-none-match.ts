/**
 * Whether an `If-None-Match` header matches `etag`: `*`, or any tag of the list, compared weakly
 * (RFC 9110 section 13.1.2: `W/"x"` and `"x"` match each other). Every route that answers 304
 * decides with this one function.
 */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false
  const value = header.trim()
  if (value === '*') return true
  const bare = etag.startsWith('W/') ? etag.slice(2) : etag
  for (const candidate of value.split(',')) {
    const tag = candidate.trim()
    if ((tag.startsWith('W/') ? tag.slice(2) : tag) === bare) return true
  }
  return false
}
