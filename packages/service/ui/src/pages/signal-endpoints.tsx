import { useState } from 'preact/hooks'
import {
  SIGNAL_ENDPOINT_NAME_MAX_LENGTH,
  SIGNAL_ENDPOINT_NAME_PATTERN,
  SIGNAL_ENDPOINT_NAME_RULE,
} from '@vexil/service/admin-rules'
import { seg, useApi } from '../api.ts'
import { Badge, Button, Card, Empty, Field, Loading } from '../components/controls.tsx'
import { EnabledSwitch } from '../components/enabled-switch.tsx'
import { ConfirmButton } from '../components/confirm-button.tsx'
import { ErrorNote } from '../components/error-note.tsx'
import { useAction, useLoad, useTitle } from '../hooks.ts'
import { Link, navigate } from '../router.tsx'
import type { SignalEndpoint } from '../types.ts'

/** The rule the API applies to a name (shared with it), as a message for the field; undefined when fine. */
export function endpointNameProblem(name: string): string | undefined {
  if (name === '') return 'Name is required.'
  if (name.length > SIGNAL_ENDPOINT_NAME_MAX_LENGTH)
    return `Name must be at most ${SIGNAL_ENDPOINT_NAME_MAX_LENGTH} characters.`
  if (!SIGNAL_ENDPOINT_NAME_PATTERN.test(name)) return `Name ${SIGNAL_ENDPOINT_NAME_RULE}.`
  return undefined
}

export const ingestUrl = (name: string) => `${window.location.origin}/api/signal-endpoint/${name}`

/** Integrations → signal endpoints: create, enable or disable, delete; each opens its own page. */
export function SignalEndpointsPage() {
  useTitle('Signal endpoints')
  const api = useApi()
  const endpoints = useLoad(
    async () => (await api.get<{ signalEndpoints: SignalEndpoint[] }>('/api/admin/signal-endpoints')).signalEndpoints,
    [],
  )

  return (
    <div class="page">
      <p class="breadcrumb">Integrations</p>
      <div class="page-header">
        <h1>Signal endpoints</h1>
      </div>
      <p class="lead">
        External systems (monitoring, CI, incident tools) POST signals to an endpoint with one of its tokens. Action
        sets can react to them by turning flags on or off.
      </p>
      <CreateEndpoint />
      <ErrorNote error={endpoints.error} />
      {endpoints.loading && !endpoints.data ? (
        <Loading what="signal endpoints" />
      ) : (
        endpoints.data && (
          <Card title="Endpoints" class="flush" id="endpoints">
            {endpoints.data.length === 0 ? (
              <Empty>No signal endpoints yet: create one above.</Empty>
            ) : (
              <ul class="rows">
                {endpoints.data.map((endpoint) => (
                  <EndpointRow key={endpoint.id} endpoint={endpoint} onChanged={endpoints.reload} />
                ))}
              </ul>
            )}
          </Card>
        )
      )}
    </div>
  )
}

function CreateEndpoint() {
  const api = useApi()
  const [name, setName] = useState('')
  const [description, setDescription] = useState('')
  const [touched, setTouched] = useState(false)
  const action = useAction()
  const problem = endpointNameProblem(name)
  const submit = (event: Event) => {
    event.preventDefault()
    setTouched(true)
    if (problem) {
      document.getElementById('endpoint-name')?.focus()
      return
    }
    void action.run(async () => {
      const created = await api.post<SignalEndpoint>('/api/admin/signal-endpoints', {
        name,
        description: description.trim() || null,
      })
      navigate(`/integrations/signal-endpoints/${created.id}`)
    })
  }
  const fieldError = touched ? problem : undefined
  return (
    <Card title="New signal endpoint" id="new-endpoint">
      <form class="form-grid" onSubmit={submit} noValidate>
        <Field
          id="endpoint-name"
          label="Name"
          hint="Part of the address: lowercase letters, digits, - and _."
          error={fieldError}
        >
          <input
            id="endpoint-name"
            value={name}
            maxLength={SIGNAL_ENDPOINT_NAME_MAX_LENGTH + 1}
            autoComplete="off"
            spellcheck={false}
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={fieldError ? 'endpoint-name-error' : 'endpoint-name-hint'}
            onInput={(e) => {
              setName(e.currentTarget.value)
              if (e.currentTarget.value) setTouched(true)
            }}
            placeholder="datadog-alerts"
          />
        </Field>
        <Field id="endpoint-description" label="Description (optional)">
          <input id="endpoint-description" value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
        </Field>
        <div class="form-actions">
          <Button type="submit" variant="primary" busy={action.busy}>
            Create endpoint
          </Button>
        </div>
        <ErrorNote error={action.error} class="span-all" />
      </form>
    </Card>
  )
}

function EndpointRow({ endpoint, onChanged }: { endpoint: SignalEndpoint; onChanged: () => Promise<void> }) {
  const api = useApi()
  const toggle = useAction()
  const path = `/api/admin/signal-endpoints/${seg(endpoint.id)}`
  return (
    <li class="row endpoint-row" data-endpoint={endpoint.name}>
      <div class="row-main">
        <Link href={`/integrations/signal-endpoints/${endpoint.id}`} class="row-title">
          {endpoint.name}
        </Link>
        {!endpoint.enabled && <Badge tone="warn">disabled</Badge>}
        {endpoint.description && <p class="muted">{endpoint.description}</p>}
        <p class="muted small">
          <code class="wrap">{ingestUrl(endpoint.name)}</code> · {endpoint.tokens.length}{' '}
          {endpoint.tokens.length === 1 ? 'token' : 'tokens'}
        </p>
        <ErrorNote error={toggle.error} />
      </div>
      <div class="row-side">
        <EnabledSwitch
          name={endpoint.name}
          enabled={endpoint.enabled}
          path={path}
          action={toggle}
          onChanged={onChanged}
        />
        <ConfirmButton
          label="Delete"
          ariaLabel={`Delete ${endpoint.name}`}
          title={`Delete ${endpoint.name}?`}
          confirmLabel="Delete endpoint"
          onConfirm={async () => {
            await api.delete(path)
            await onChanged()
          }}
        >
          <p>Its tokens and every signal it received are deleted too. Systems still posting to it will get 404.</p>
        </ConfirmButton>
      </div>
    </li>
  )
}
