// A small History API router: the service answers index.html for every page path
// (src/routes/ui.ts), so pages have real URLs that survive a reload and can be shared.
import type { AnchorHTMLAttributes, ComponentChildren, TargetedMouseEvent } from 'preact'
import { useEffect, useState } from 'preact/hooks'

export interface Location {
  path: string
  query: URLSearchParams
}

const listeners = new Set<() => void>()

function current(): Location {
  return { path: window.location.pathname, query: new URLSearchParams(window.location.search) }
}

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (to === window.location.pathname + window.location.search) return
  if (options.replace) window.history.replaceState(null, '', to)
  else window.history.pushState(null, '', to)
  for (const listener of listeners) listener()
}

/** The current location; re-renders on navigation and on back/forward. */
export function useLocation(): Location {
  const [location, setLocation] = useState(current)
  useEffect(() => {
    const update = () => setLocation(current())
    listeners.add(update)
    window.addEventListener('popstate', update)
    return () => {
      listeners.delete(update)
      window.removeEventListener('popstate', update)
    }
  }, [])
  return location
}

/** `path` with `query` (entries with an empty value left out). */
export function href(path: string, query: Record<string, string | undefined> = {}): string {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, value)
  const search = params.toString()
  return search ? `${path}?${search}` : path
}

type AnchorProps = AnchorHTMLAttributes<HTMLAnchorElement> & { href: string; children?: ComponentChildren }

/** An `<a>` that navigates in place (a plain click) and behaves as a link otherwise (new tab...). */
export function Link(props: AnchorProps) {
  const onClick = (event: TargetedMouseEvent<HTMLAnchorElement>) => {
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey
    )
      return
    event.preventDefault()
    navigate(props.href)
    window.scrollTo(0, 0)
  }
  return <a {...props} href={props.href} onClick={onClick} />
}
