// Loading, acting and polling, each keeping the error it met so the page can show it where it
// happened. Nothing here swallows an error.
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks'
import { ApiError } from './api.ts'

export interface Loaded<T> {
  data: T | undefined
  /** Carries `retry` (reload), so that an ErrorNote showing it offers to try again. */
  error: ApiError | undefined
  loading: boolean
  /** Loads again; the data shown stays until the new answer arrives. */
  reload: () => Promise<void>
}

/** Loads `load()` when `deps` change; answers of superseded loads are dropped. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data: T | undefined; error: ApiError | undefined; loading: boolean }>({
    data: undefined,
    error: undefined,
    loading: true,
  })
  const generation = useRef(0)
  const latest = useRef(load)
  latest.current = load

  const reload = useCallback(async () => {
    const mine = ++generation.current
    setState((previous) => ({ ...previous, loading: true }))
    try {
      const data = await latest.current()
      if (mine === generation.current) setState({ data, error: undefined, loading: false })
    } catch (error) {
      if (mine === generation.current)
        setState((previous) => ({ data: previous.data, error: asApiError(error).withRetry(reload), loading: false }))
    }
  }, [])

  useEffect(() => {
    setState({ data: undefined, error: undefined, loading: true })
    void reload()
    return () => {
      generation.current++
    }
  }, deps)

  return { ...state, reload }
}

/** One note for loads that fail together: the first error, its retry loading again each that failed. */
export function useLoadError(...loads: Loaded<unknown>[]): ApiError | undefined {
  const failed = loads.filter((load) => load.error)
  return useMemo(
    () =>
      failed[0]?.error?.withRetry(async () => {
        await Promise.all(failed.map((load) => load.reload()))
      }),
    loads.map((load) => load.error),
  )
}

export interface Action {
  busy: boolean
  error: ApiError | undefined
  /** Runs `fn` unless a run is in flight; resolves true when it succeeded. */
  run: (fn: () => Promise<unknown>) => Promise<boolean>
  clear: () => void
}

/** One button's (or form's) request: busy while in flight, its error kept until the next run. */
export function useAction(): Action {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<ApiError | undefined>()
  const inFlight = useRef(false)
  const mounted = useRef(true)
  useEffect(() => () => void (mounted.current = false), [])

  const run = useCallback(async (fn: () => Promise<unknown>) => {
    if (inFlight.current) return false
    inFlight.current = true
    setBusy(true)
    setError(undefined)
    try {
      await fn()
      return true
    } catch (caught) {
      if (mounted.current) setError(asApiError(caught))
      return false
    } finally {
      inFlight.current = false
      if (mounted.current) setBusy(false)
    }
  }, [])

  return { busy, error, run, clear: useCallback(() => setError(undefined), []) }
}

/**
 * Calls `tick` every `ms` while the page is visible (as Unleash's UI polls signals every 5 s),
 * and at once when the page becomes visible again. Stops on unmount.
 */
export function usePolling(tick: () => unknown, ms: number, enabled = true): void {
  const latest = useRef(tick)
  latest.current = tick
  useEffect(() => {
    if (!enabled) return undefined
    let timer: number | undefined
    let stopped = false
    const schedule = () => {
      window.clearTimeout(timer)
      timer = !stopped && document.visibilityState === 'visible' ? window.setTimeout(fire, ms) : undefined
    }
    const fire = async () => {
      window.clearTimeout(timer)
      try {
        await latest.current()
      } finally {
        schedule()
      }
    }
    const onVisibility = () => {
      if (document.visibilityState === 'visible') void fire()
      else window.clearTimeout(timer)
    }
    schedule()
    document.addEventListener('visibilitychange', onVisibility)
    return () => {
      stopped = true
      window.clearTimeout(timer)
      document.removeEventListener('visibilitychange', onVisibility)
    }
  }, [ms, enabled])
}

/** Sets the document title for a page. */
export function useTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Vexil`
  }, [title])
}

export function asApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error
  return new ApiError(0, 'UnexpectedError', error instanceof Error ? error.message : String(error))
}
