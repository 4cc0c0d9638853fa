// The sign-in token lives in sessionStorage only: it is gone when the tab closes, and it is
// never written to localStorage, a cookie or a URL.
import type { Me } from './types.ts'

const KEY = 'vexil.token'

export function storedToken(): string | undefined {
  try {
    return window.sessionStorage.getItem(KEY) ?? undefined
  } catch {
    return undefined
  }
}

export function storeToken(token: string): void {
  window.sessionStorage.setItem(KEY, token)
}

export function forgetToken(): void {
  window.sessionStorage.removeItem(KEY)
}

export interface Session {
  token: string
  me: Me
}

const ROLES: Record<number, string> = { 1: 'Admin', 2: 'Editor', 3: 'Viewer' }

export function isAdmin(me: Me): boolean {
  return me.permissions.some((p) => p.permission === 'ADMIN')
}

/** Who is signed in, as the header shows it. */
export function describeMe(me: Me): { who: string; what: string } {
  if (me.user.isAPI) return { who: me.user.name ?? 'unnamed token', what: 'Admin token' }
  const who = me.user.name || me.user.username || me.user.email || `User ${me.user.id}`
  return { who, what: ROLES[me.user.rootRole] ?? 'User' }
}
