import type { ComponentChildren, JSX } from 'preact'
import { useCallback, useEffect, useMemo, useState } from 'preact/hooks'
import { ApiContext, type ApiError, createApi, request } from './api.ts'
import { Button, Loading } from './components/controls.tsx'
import { ErrorNote } from './components/error-note.tsx'
import { lazyPage } from './components/lazy-page.tsx'
import { asApiError } from './hooks.ts'
import { ActionSetFormPage } from './pages/action-set-form.tsx'
import { ActionSetRunsPage } from './pages/action-set-runs.tsx'
import { ActionsPage } from './pages/actions.tsx'
import { FlagsPage } from './pages/flags.tsx'
import { InsightsPage } from './pages/insights.tsx'
import { SignInPage } from './pages/sign-in.tsx'
import { SignalEndpointPage } from './pages/signal-endpoint.tsx'
import { SignalEndpointsPage } from './pages/signal-endpoints.tsx'
import { href, Link, navigate, useLocation } from './router.tsx'
import { describeMe, forgetToken, isAdmin, type Session, storedToken, storeToken } from './session.ts'
import type { Me } from './types.ts'

interface Route {
  pattern: RegExp
  /** Needs the ADMIN permission (everything but insights: README, Authentication). */
  admin: boolean
  render: (match: RegExpMatchArray) => JSX.Element
}

const part = (match: RegExpMatchArray, i: number) => decodeURIComponent(match[i] as string)

// Pages beyond the flags list load on first visit (components/lazy-page.tsx).
const NewFlagPage = lazyPage('new flag', async () => (await import('./pages/flag/new-flag.tsx')).NewFlagPage)
const FlagPage = lazyPage('flag', async () => (await import('./pages/flag/flag-page.tsx')).FlagPage)
const StrategyFormPage = lazyPage(
  'strategy',
  async () => (await import('./pages/strategies/strategy-form.tsx')).StrategyFormPage,
)
const SegmentsPage = lazyPage('segments', async () => (await import('./pages/segments/segments-page.tsx')).SegmentsPage)
const SegmentFormPage = lazyPage(
  'segment',
  async () => (await import('./pages/segments/segment-form.tsx')).SegmentFormPage,
)
const ApiTokensPage = lazyPage('API tokens', async () => (await import('./pages/admin/api-tokens.tsx')).ApiTokensPage)
const ProjectsPage = lazyPage('projects', async () => (await import('./pages/admin/projects.tsx')).ProjectsPage)
const EnvironmentsPage = lazyPage(
  'environments',
  async () => (await import('./pages/admin/environments.tsx')).EnvironmentsPage,
)
const ArchivePage = lazyPage('archive', async () => (await import('./pages/admin/archive.tsx')).ArchivePage)
const HistoryPage = lazyPage('history', async () => (await import('./pages/history/history-page.tsx')).HistoryPage)
const FlagHistoryPage = lazyPage(
  'flag history',
  async () => (await import('./pages/flag/flag-history.tsx')).FlagHistoryPage,
)
const PlaygroundPage = lazyPage(
  'playground',
  async () => (await import('./pages/playground/playground.tsx')).PlaygroundPage,
)

const FLAG = String.raw`\/projects\/([^/]+)\/flags\/([^/]+)`

const ROUTES: Route[] = [
  { pattern: /^\/flags$/, admin: true, render: () => <FlagsPage /> },
  {
    pattern: /^\/flags\/new$/,
    admin: true,
    render: () => <NewFlagPage project={new URLSearchParams(window.location.search).get('project') ?? undefined} />,
  },
  { pattern: new RegExp(`^${FLAG}$`), admin: true, render: (m) => <FlagPage project={part(m, 1)} name={part(m, 2)} /> },
  {
    pattern: new RegExp(`^${FLAG}\\/history$`),
    admin: true,
    render: (m) => <FlagHistoryPage project={part(m, 1)} name={part(m, 2)} />,
  },
  { pattern: /^\/history$/, admin: true, render: () => <HistoryPage /> },
  {
    pattern: new RegExp(`^${FLAG}\\/strategies\\/([^/]+)\\/new$`),
    admin: true,
    render: (m) => <StrategyFormPage project={part(m, 1)} name={part(m, 2)} environment={part(m, 3)} />,
  },
  {
    pattern: new RegExp(`^${FLAG}\\/strategies\\/([^/]+)\\/([^/]+)\\/edit$`),
    admin: true,
    render: (m) => <StrategyFormPage project={part(m, 1)} name={part(m, 2)} environment={part(m, 3)} id={part(m, 4)} />,
  },
  { pattern: /^\/segments$/, admin: true, render: () => <SegmentsPage /> },
  { pattern: /^\/segments\/new$/, admin: true, render: () => <SegmentFormPage /> },
  { pattern: /^\/segments\/(\d+)\/edit$/, admin: true, render: (m) => <SegmentFormPage id={Number(m[1])} /> },
  { pattern: /^\/playground$/, admin: true, render: () => <PlaygroundPage /> },
  { pattern: /^\/integrations\/signal-endpoints$/, admin: true, render: () => <SignalEndpointsPage /> },
  {
    pattern: /^\/integrations\/signal-endpoints\/(\d+)$/,
    admin: true,
    render: (m) => <SignalEndpointPage id={Number(m[1])} />,
  },
  { pattern: /^\/actions$/, admin: true, render: () => <ActionsPage /> },
  { pattern: /^\/actions\/([^/]+)\/new$/, admin: true, render: (m) => <ActionSetFormPage project={part(m, 1)} /> },
  {
    pattern: /^\/actions\/([^/]+)\/(\d+)\/edit$/,
    admin: true,
    render: (m) => <ActionSetFormPage project={part(m, 1)} id={Number(m[2])} />,
  },
  {
    pattern: /^\/actions\/([^/]+)\/(\d+)\/runs$/,
    admin: true,
    render: (m) => <ActionSetRunsPage project={part(m, 1)} id={Number(m[2])} />,
  },
  { pattern: /^\/insights$/, admin: false, render: () => <InsightsPage /> },
  { pattern: /^\/api-tokens$/, admin: true, render: () => <ApiTokensPage /> },
  { pattern: /^\/projects$/, admin: true, render: () => <ProjectsPage /> },
  { pattern: /^\/environments$/, admin: true, render: () => <EnvironmentsPage /> },
  { pattern: /^\/archive$/, admin: true, render: () => <ArchivePage /> },
]

/** The main menu; an item is marked current on its own pages (`under`: the path prefixes that are its). */
const NAV: { href: string; label: string; admin: boolean; under: string[] }[] = [
  { href: '/flags', label: 'Flags', admin: true, under: ['/flags/', '/projects/'] },
  { href: '/segments', label: 'Segments', admin: true, under: ['/segments/'] },
  { href: '/playground', label: 'Playground', admin: true, under: [] },
  { href: '/integrations/signal-endpoints', label: 'Signal endpoints', admin: true, under: ['/integrations/'] },
  { href: '/actions', label: 'Actions', admin: true, under: ['/actions/'] },
  { href: '/insights', label: 'Insights', admin: false, under: [] },
  { href: '/history', label: 'History', admin: true, under: [] },
  { href: '/api-tokens', label: 'API tokens', admin: true, under: [] },
  { href: '/projects', label: 'Projects', admin: true, under: [] },
  { href: '/environments', label: 'Environments', admin: true, under: [] },
  { href: '/archive', label: 'Archive', admin: true, under: [] },
]

type State =
  | { kind: 'checking' }
  | { kind: 'signed-out'; message?: string }
  | { kind: 'signed-in'; session: Session }
  | { kind: 'unreachable'; error: ApiError; token: string }

/** Signs in with the stored token (if any), then routes; any 401 ends the session. */
export function App() {
  const location = useLocation()
  const [state, setState] = useState<State>(() => (storedToken() ? { kind: 'checking' } : { kind: 'signed-out' }))

  const check = useCallback(async (token: string) => {
    setState({ kind: 'checking' })
    try {
      const me = await request<Me>(token, 'GET', '/api/admin/user')
      setState({ kind: 'signed-in', session: { token, me } })
    } catch (caught) {
      const error = asApiError(caught)
      if (error.status === 0) {
        setState({ kind: 'unreachable', error, token })
        return
      }
      forgetToken()
      setState({ kind: 'signed-out', message: `Your session ended: ${error.message} Sign in again.` })
    }
  }, [])

  useEffect(() => {
    const token = storedToken()
    if (token) void check(token)
  }, [])

  const signedIn = useCallback((token: string, me: Me) => {
    storeToken(token)
    setState({ kind: 'signed-in', session: { token, me } })
  }, [])

  // Signing out leaves for the plain sign-in page; an ended session remembers the page (`next`).
  const signOut = useCallback((message?: string) => {
    forgetToken()
    if (!message) navigate('/signin')
    setState(message ? { kind: 'signed-out', message } : { kind: 'signed-out' })
  }, [])

  const token = state.kind === 'signed-in' ? state.session.token : undefined
  const api = useMemo(
    () =>
      token
        ? createApi({
            token,
            onUnauthorized: (error) => signOut(`Your session ended: ${error.message} Sign in again.`),
          })
        : null,
    [token],
  )

  // Signed out: every page is the sign-in page, remembering where the person was going.
  const onSignIn = location.path === '/signin'
  useEffect(() => {
    if (state.kind === 'signed-out' && !onSignIn) {
      const next =
        location.path === '/' ? undefined : location.path + (location.query.toString() ? `?${location.query}` : '')
      navigate(href('/signin', { next }), { replace: true })
    }
    if (state.kind === 'signed-in' && (onSignIn || location.path === '/')) {
      const next = location.query.get('next')
      const home = isAdmin(state.session.me) ? '/flags' : '/insights'
      navigate(next?.startsWith('/') && !next.startsWith('//') ? next : home, { replace: true })
    }
  }, [state.kind, location.path])

  if (state.kind === 'checking')
    return (
      <div class="splash">
        <Loading what="your session" />
      </div>
    )
  if (state.kind === 'unreachable') {
    return (
      <div class="splash">
        <ErrorNote error={state.error} />
        <Button variant="primary" onClick={() => check(state.token)}>
          Try again
        </Button>
      </div>
    )
  }
  if (state.kind === 'signed-out') return <SignInPage message={state.message} onSignedIn={signedIn} />

  const { me } = state.session
  const admin = isAdmin(me)
  const route = ROUTES.map((r) => ({ r, m: location.path.match(r.pattern) })).find((x) => x.m)
  let page: ComponentChildren
  if (!route) page = <NotFound />
  else if (route.r.admin && !admin) page = <NeedsAdmin me={me} />
  else page = route.r.render(route.m as RegExpMatchArray)

  return (
    <ApiContext.Provider value={api}>
      <Header me={me} path={location.path} onSignOut={() => signOut()} />
      <main id="main" class="main">
        {page}
      </main>
    </ApiContext.Provider>
  )
}

function Header({ me, path, onSignOut }: { me: Me; path: string; onSignOut: () => void }) {
  const { who, what } = describeMe(me)
  const admin = isAdmin(me)
  return (
    <header class="topbar">
      <div class="topbar-row">
        <Link href="/" class="brand" aria-label="Vexil home">
          <img src="/favicon.svg" alt="" width={24} height={24} />
          <span>Vexil</span>
        </Link>
        <div class="whoami" role="group" aria-label="Signed in as">
          <span class="who" data-testid="who">
            {who}
          </span>
          <span class="what">{what}</span>
          <Button size="small" variant="ghost" onClick={onSignOut}>
            Sign out
          </Button>
        </div>
      </div>
      <nav class="nav" aria-label="Main">
        {NAV.filter((item) => admin || !item.admin).map((item) => {
          const active = path === item.href || item.under.some((prefix) => path.startsWith(prefix))
          return (
            <Link
              key={item.href}
              href={item.href}
              class={active ? 'active' : ''}
              aria-current={active ? 'page' : undefined}
            >
              {item.label}
            </Link>
          )
        })}
      </nav>
    </header>
  )
}

function NotFound() {
  return (
    <div class="page">
      <h1>Page not found</h1>
      <p>
        There is no page at this address. <Link href="/">Go to the start page</Link>.
      </p>
    </div>
  )
}

function NeedsAdmin({ me }: { me: Me }) {
  return (
    <div class="page">
      <h1>Admins only</h1>
      <p>
        This page needs the ADMIN permission, and you are signed in as {describeMe(me).what}. You can see the{' '}
        <Link href="/insights">insights</Link>; sign in with an admin token or an Admin's personal token for the rest.
      </p>
    </div>
  )
}
