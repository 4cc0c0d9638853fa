import { useEffect, useRef, useState } from 'preact/hooks'
import { seg, useApi } from '../api.ts'
import { Badge, Button, Card, Empty, Field, Loading } from '../components/controls.tsx'
import { EnabledSwitch } from '../components/enabled-switch.tsx'
import { ConfirmButton } from '../components/confirm-button.tsx'
import { CopyButton } from '../components/copy-button.tsx'
import { ErrorNote } from '../components/error-note.tsx'
import { JsonView } from '../components/json-view.tsx'
import { Time } from '../components/time.tsx'
import { useAction, useLoad, usePolling, useTitle } from '../hooks.ts'
import { Link } from '../router.tsx'
import type { Signal, SignalEndpoint, SignalToken } from '../types.ts'
import { ingestUrl } from './signal-endpoints.tsx'

/** How often the received signals are fetched while the page is visible (Unleash's UI: 5 s). */
export const SIGNALS_POLL_MS = 5_000

/** One endpoint: its address, its tokens (a new one's secret shown once), its received signals. */
export function SignalEndpointPage({ id }: { id: number }) {
  const api = useApi()
  const path = `/api/admin/signal-endpoints/${seg(id)}`
  // The list carries the tokens; there is no GET of one endpoint in the API.
  const endpoint = useLoad(async () => {
    const all = (await api.get<{ signalEndpoints: SignalEndpoint[] }>('/api/admin/signal-endpoints')).signalEndpoints
    return all.find((e) => e.id === id) ?? null
  }, [id])
  const toggle = useAction()
  useTitle(endpoint.data ? `${endpoint.data.name} · Signal endpoints` : 'Signal endpoint')

  if (endpoint.error && !endpoint.data)
    return (
      <div class="page">
        <ErrorNote error={endpoint.error} />
      </div>
    )
  if (endpoint.data === undefined)
    return (
      <div class="page">
        <Loading what="the endpoint" />
      </div>
    )
  if (endpoint.data === null) {
    return (
      <div class="page">
        <h1>Signal endpoint not found</h1>
        <p>
          There is no signal endpoint {id} (it may have been deleted).{' '}
          <Link href="/integrations/signal-endpoints">All endpoints</Link>
        </p>
      </div>
    )
  }
  const data = endpoint.data
  const url = ingestUrl(data.name)
  return (
    <div class="page">
      <p class="breadcrumb">
        <Link href="/integrations/signal-endpoints">Integrations › Signal endpoints</Link>
      </p>
      <div class="page-header">
        <h1>{data.name}</h1>
        <EnabledSwitch
          name={data.name}
          enabled={data.enabled}
          path={path}
          action={toggle}
          onChanged={endpoint.reload}
        />
      </div>
      <ErrorNote error={toggle.error ?? endpoint.error} />
      {data.description && <p class="lead">{data.description}</p>}
      {!data.enabled && (
        <p class="notice">This endpoint is disabled: it answers 404 and stores nothing until it is enabled again.</p>
      )}
      <div class="address">
        <span class="muted">Signals are POSTed to</span> <code class="wrap">{url}</code>{' '}
        <CopyButton text={url} what="endpoint address" />
      </div>
      <Tokens endpoint={data} onChanged={endpoint.reload} />
      <Signals endpointId={id} />
    </div>
  )
}

function curlLine(url: string, secret: string): string {
  return `curl -X POST '${url}' -H 'Authorization: Bearer ${secret}' -H 'Content-Type: application/json' -d '{"event":"test","severity":"high"}'`
}

function Tokens({ endpoint, onChanged }: { endpoint: SignalEndpoint; onChanged: () => Promise<void> }) {
  const api = useApi()
  const [name, setName] = useState('')
  const [touched, setTouched] = useState(false)
  const [secret, setSecret] = useState<{ name: string; token: string }>()
  const create = useAction()
  const path = `/api/admin/signal-endpoints/${seg(endpoint.id)}/tokens`
  const problem = touched && !name.trim() ? 'Token name is required.' : undefined

  const submit = (event: Event) => {
    event.preventDefault()
    setTouched(true)
    if (!name.trim()) {
      document.getElementById('token-name')?.focus()
      return
    }
    void create.run(async () => {
      const made = await api.post<SignalToken & { token: string }>(path, { name: name.trim() })
      setSecret({ name: made.name, token: made.token })
      setName('')
      setTouched(false)
      await onChanged()
    })
  }

  return (
    <Card title="Tokens" id="tokens">
      {secret && (
        <NewSecret
          name={secret.name}
          secret={secret.token}
          url={ingestUrl(endpoint.name)}
          onDone={() => setSecret(undefined)}
        />
      )}
      {endpoint.tokens.length === 0 ? (
        <Empty>No tokens yet: a system needs one to send signals.</Empty>
      ) : (
        <ul class="rows compact">
          {endpoint.tokens.map((token) => (
            <li key={token.id} class="row" data-token={token.name}>
              <div class="row-main">
                <span class="row-title">{token.name}</span>
                <span class="muted small">
                  created <Time iso={token.createdAt} />
                </span>
              </div>
              <div class="row-side">
                <ConfirmButton
                  label="Delete"
                  ariaLabel={`Delete token ${token.name}`}
                  title={`Delete the token ${token.name}?`}
                  confirmLabel="Delete token"
                  onConfirm={async () => {
                    await api.delete(`${path}/${seg(token.id)}`)
                    await onChanged()
                  }}
                >
                  <p>Systems using it get 401 from now on. Signals it already sent are kept.</p>
                </ConfirmButton>
              </div>
            </li>
          ))}
        </ul>
      )}
      <form class="inline-form" onSubmit={submit} noValidate>
        <Field id="token-name" label="New token name" error={problem}>
          <input
            id="token-name"
            value={name}
            autoComplete="off"
            placeholder="e.g. datadog"
            aria-invalid={problem ? true : undefined}
            onInput={(e) => setName(e.currentTarget.value)}
          />
        </Field>
        <Button type="submit" variant="primary" busy={create.busy}>
          Create token
        </Button>
      </form>
      <ErrorNote error={create.error} />
    </Card>
  )
}

/** The secret of a token just made: the only time it is shown (the API keeps only its hash). */
function NewSecret({ name, secret, url, onDone }: { name: string; secret: string; url: string; onDone: () => void }) {
  const ref = useRef<HTMLDivElement>(null)
  useEffect(() => ref.current?.focus(), [])
  const curl = curlLine(url, secret)
  return (
    <div class="secret" ref={ref} tabIndex={-1} role="region" aria-label={`Secret of the token ${name}`}>
      <p>
        <strong>Copy the secret of “{name}” now.</strong> It is shown this once: Vexil stores only its hash.
      </p>
      <div class="secret-line">
        <code class="wrap" data-testid="token-secret">
          {secret}
        </code>
        <CopyButton text={secret} what="token secret" />
      </div>
      <p class="muted small">Send a test signal:</p>
      <div class="secret-line">
        <code class="wrap" data-testid="curl-line">
          {curl}
        </code>
        <CopyButton text={curl} what="curl command" />
      </div>
      <Button size="small" onClick={onDone}>
        I have copied it
      </Button>
    </div>
  )
}

/** Received signals, newest first, fetched again every 5 s while the page is visible. */
function Signals({ endpointId }: { endpointId: number }) {
  const api = useApi()
  const signals = useLoad(
    async () =>
      (
        await api.get<{ signalEndpointSignals: Signal[] }>(
          `/api/admin/signal-endpoints/${seg(endpointId)}/signals?limit=50`,
        )
      ).signalEndpointSignals,
    [endpointId],
  )
  const [checkedAt, setCheckedAt] = useState<Date>()
  const seen = useRef<Set<number> | undefined>(undefined)
  const [fresh, setFresh] = useState<Set<number>>(new Set())
  usePolling(signals.reload, SIGNALS_POLL_MS)

  useEffect(() => {
    if (!signals.data) return
    setCheckedAt(new Date())
    const ids = new Set(signals.data.map((s) => s.id))
    // Signals that arrived since the last look are highlighted (none on the first load).
    if (seen.current) setFresh(new Set([...ids].filter((signalId) => !seen.current?.has(signalId))))
    seen.current = ids
  }, [signals.data])

  return (
    <Card
      title="Received signals"
      id="signals"
      actions={
        <span class="muted small" role="status" aria-live="off">
          {checkedAt ? `Checked ${checkedAt.toLocaleTimeString()} · every ${SIGNALS_POLL_MS / 1000} s` : ''}
        </span>
      }
    >
      <ErrorNote error={signals.error} focus={false} />
      {!signals.data ? (
        !signals.error && <Loading what="signals" />
      ) : signals.data.length === 0 ? (
        <Empty>No signals yet. They appear here within seconds of arriving; try the curl line of a new token.</Empty>
      ) : (
        <ol class="signals" aria-live="polite">
          {signals.data.map((signal) => (
            <li key={signal.id} class={`signal${fresh.has(signal.id) ? ' fresh' : ''}`} data-signal={signal.id}>
              <div class="signal-meta">
                <Time iso={signal.createdAt} />
                <span>
                  token{' '}
                  {signal.tokenName ? (
                    <strong>{signal.tokenName}</strong>
                  ) : (
                    <Badge title="The token that sent it was deleted">deleted</Badge>
                  )}
                </span>
                <span class="muted">#{signal.id}</span>
                {fresh.has(signal.id) && <Badge tone="info">new</Badge>}
              </div>
              <JsonView value={signal.payload} label={`Payload of signal ${signal.id}`} />
            </li>
          ))}
        </ol>
      )}
    </Card>
  )
}
