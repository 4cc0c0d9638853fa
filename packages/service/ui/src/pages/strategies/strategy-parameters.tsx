// The parameters of each strategy kind: a rollout (slider and number), its stickiness and group,
// the list of user ids, addresses or host names, or a custom kind's parameters as they are.
import { useState } from 'preact/hooks'
import { FIELD, LIST_PARAMETER, STICKINESS, type StrategyForm } from './strategy-form-model.ts'
import { ListInput } from './list-input.tsx'
import type { Problems } from './constraints-model.ts'

const OTHER = '\u0000other'

const STICKINESS_LABELS: Record<string, string> = {
  default: 'default (userId, else sessionId, else random)',
  userId: 'userId',
  sessionId: 'sessionId',
  random: 'random (not sticky)',
}

export function StrategyParameters({
  form,
  flag,
  problems,
  onChange,
}: {
  form: StrategyForm
  flag: string
  problems: Problems
  onChange: (patch: Partial<StrategyForm>) => void
}) {
  const setParameter = (key: string, value: string) => onChange({ parameters: { ...form.parameters, [key]: value } })
  const list = LIST_PARAMETER[form.name]
  if (list) {
    const problem = problems[FIELD.list]
    return (
      <div class={`field${problem ? ' invalid' : ''}`}>
        <label for={FIELD.list}>{list.label}</label>
        <ListInput
          id={FIELD.list}
          values={form.list}
          draft={form.listDraft}
          noun={list.noun}
          placeholder={
            form.name === 'remoteAddress' ? '10.0.0.0/8' : form.name === 'userWithId' ? 'alice' : 'web-1.example.com'
          }
          invalid={Boolean(problem)}
          describedBy={`${FIELD.list}-hint${problem ? ` ${FIELD.list}-error` : ''}`}
          onChange={(values, draft) => onChange({ list: values, listDraft: draft })}
        />
        <p class="hint" id={`${FIELD.list}-hint`}>
          Enter or a comma adds each. {form.name === 'remoteAddress' && 'IPv4 and IPv6 addresses and CIDR ranges.'}
        </p>
        {problem && (
          <p class="field-error" id={`${FIELD.list}-error`}>
            {problem}
          </p>
        )}
      </div>
    )
  }
  switch (form.name) {
    case 'default':
      return <p class="muted">On for every context that passes the constraints and segments below.</p>
    case 'flexibleRollout':
      return (
        <div class="form-grid">
          <Percentage
            id={FIELD.rollout}
            label="Rollout (%)"
            value={form.parameters.rollout ?? ''}
            problem={problems[FIELD.rollout]}
            onChange={(v) => setParameter('rollout', v)}
          />
          <Stickiness
            value={form.parameters.stickiness ?? ''}
            problem={problems[FIELD.stickiness]}
            onChange={(v) => setParameter('stickiness', v)}
          />
          <GroupId value={form.parameters.groupId ?? ''} flag={flag} onChange={(v) => setParameter('groupId', v)} />
        </div>
      )
    case 'gradualRolloutUserId':
    case 'gradualRolloutSessionId':
    case 'gradualRolloutRandom':
      return (
        <div class="form-grid">
          <Percentage
            id={FIELD.percentage}
            label="Percentage (%)"
            value={form.parameters.percentage ?? ''}
            problem={problems[FIELD.percentage]}
            onChange={(v) => setParameter('percentage', v)}
          />
          {form.name !== 'gradualRolloutRandom' && (
            <GroupId value={form.parameters.groupId ?? ''} flag={flag} onChange={(v) => setParameter('groupId', v)} />
          )}
          <p class="hint span-all">
            A legacy kind, kept for the SDKs that use it: a gradual rollout with a stickiness does the same.
          </p>
        </div>
      )
    default:
      return (
        <div class="form-grid" id={FIELD.parameters} tabIndex={-1}>
          {Object.keys(form.parameters).length === 0 && <p class="muted span-all">No parameters.</p>}
          {Object.entries(form.parameters).map(([key, value]) => (
            <div class="field" key={key}>
              <label for={`parameter-${key}`}>{key}</label>
              <input id={`parameter-${key}`} value={value} onInput={(e) => setParameter(key, e.currentTarget.value)} />
            </div>
          ))}
          <p class="hint span-all">
            A custom strategy: only SDKs that register <code>{form.name}</code> evaluate it; the others treat it as not
            matching.
          </p>
          {problems[FIELD.parameters] && <p class="field-error span-all">{problems[FIELD.parameters]}</p>}
        </div>
      )
  }
}

/** A percentage as a slider and a number field kept in step; the engine checks what is typed. */
function Percentage({
  id,
  label,
  value,
  problem,
  onChange,
}: {
  id: string
  label: string
  value: string
  problem: string | undefined
  onChange: (value: string) => void
}) {
  const number = Number(value)
  const slider = Number.isFinite(number) ? Math.min(100, Math.max(0, number)) : 0
  return (
    <div class={`field${problem ? ' invalid' : ''}`}>
      <label for={id}>{label}</label>
      <div class="percentage">
        <input
          type="range"
          min={0}
          max={100}
          step={1}
          value={slider}
          aria-label={`${label} slider`}
          aria-valuetext={`${slider}%`}
          onInput={(e) => onChange(e.currentTarget.value)}
        />
        <input
          id={id}
          type="text"
          inputMode="decimal"
          class="percentage-number"
          value={value}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-error` : undefined}
          onInput={(e) => onChange(e.currentTarget.value)}
        />
      </div>
      {problem && (
        <p class="field-error" id={`${id}-error`}>
          {problem}
        </p>
      )}
    </div>
  )
}

/** default, userId, sessionId, random, or any context field typed in. */
function Stickiness({
  value,
  problem,
  onChange,
}: {
  value: string
  problem: string | undefined
  onChange: (value: string) => void
}) {
  const [other, setOther] = useState(() => value !== '' && !STICKINESS.includes(value))
  return (
    <div class={`field${problem ? ' invalid' : ''}`}>
      <label for={FIELD.stickiness}>Stickiness</label>
      <select
        id={FIELD.stickiness}
        value={other ? OTHER : value}
        onChange={(e) => {
          const chosen = e.currentTarget.value
          setOther(chosen === OTHER)
          onChange(chosen === OTHER ? '' : chosen)
        }}
      >
        {STICKINESS.map((s) => (
          <option key={s} value={s}>
            {STICKINESS_LABELS[s]}
          </option>
        ))}
        <option value={OTHER}>another context field…</option>
      </select>
      {other && (
        <input
          id="stickiness-field"
          aria-label="Context field to be sticky on"
          placeholder="tenantId"
          value={value}
          aria-invalid={problem ? true : undefined}
          onInput={(e) => onChange(e.currentTarget.value)}
        />
      )}
      <p class="hint">Who keeps the same answer: the same value of this field always lands in the same bucket.</p>
      {problem && <p class="field-error">{problem}</p>}
    </div>
  )
}

function GroupId({ value, flag, onChange }: { value: string; flag: string; onChange: (value: string) => void }) {
  return (
    <div class="field">
      <label for={FIELD.groupId}>Group ID</label>
      <input
        id={FIELD.groupId}
        value={value}
        placeholder={flag}
        spellcheck={false}
        onInput={(e) => onChange(e.currentTarget.value)}
      />
      <p class="hint">Rollouts with the same group put the same users in. Empty: the flag's name, {flag}.</p>
    </div>
  )
}
