import type { ButtonHTMLAttributes, ComponentChildren } from 'preact'

type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  busy?: boolean
  variant?: 'primary' | 'secondary' | 'danger' | 'ghost'
  size?: 'small'
}

/** A real button; disabled (and saying so) while its request is in flight. */
export function Button({
  busy = false,
  variant = 'secondary',
  size,
  disabled,
  children,
  type = 'button',
  class: className = '',
  ...rest
}: ButtonProps) {
  return (
    <button
      {...rest}
      type={type}
      class={`button ${variant}${size ? ` ${size}` : ''} ${className}`}
      disabled={Boolean(disabled) || busy}
      aria-busy={busy || undefined}
    >
      {busy && <span class="spinner" aria-hidden="true" />}
      {children}
    </button>
  )
}

/** An on/off switch: a button with role="switch", labelled for screen readers. */
export function Switch({
  checked,
  label,
  busy = false,
  disabled = false,
  onChange,
  showText = false,
}: {
  checked: boolean
  label: string
  busy?: boolean
  disabled?: boolean
  onChange: (next: boolean) => void
  showText?: boolean
}) {
  return (
    <button
      type="button"
      role="switch"
      class={`switch${checked ? ' on' : ''}`}
      aria-checked={checked}
      aria-label={label}
      aria-busy={busy || undefined}
      disabled={disabled || busy}
      title={label}
      onClick={() => onChange(!checked)}
    >
      <span class="track" aria-hidden="true">
        <span class="thumb" />
      </span>
      {showText && <span class="switch-text">{checked ? 'On' : 'Off'}</span>}
    </button>
  )
}

export function Field({
  label,
  hint,
  error,
  children,
  id,
}: {
  label: string
  hint?: ComponentChildren
  error?: string | undefined
  children: ComponentChildren
  id: string
}) {
  return (
    <div class={`field${error ? ' invalid' : ''}`}>
      <label for={id}>{label}</label>
      {children}
      {hint && (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p class="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
    </div>
  )
}

export function Badge({
  tone = 'neutral',
  children,
  title,
}: {
  tone?: 'neutral' | 'good' | 'bad' | 'warn' | 'info'
  children: ComponentChildren
  title?: string
}) {
  return (
    <span class={`badge ${tone}`} title={title}>
      {children}
    </span>
  )
}

export function Loading({ what }: { what: string }) {
  return (
    <p class="loading" role="status">
      <span class="spinner" aria-hidden="true" /> Loading {what}…
    </p>
  )
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <div class="empty">{children}</div>
}

export function Card({
  title,
  actions,
  children,
  class: className = '',
  id,
}: {
  title?: ComponentChildren
  actions?: ComponentChildren
  children: ComponentChildren
  class?: string
  id?: string
}) {
  return (
    <section class={`card ${className}`} id={id} aria-labelledby={id && title ? `${id}-title` : undefined}>
      {(title || actions) && (
        <header class="card-header">
          {title && <h2 id={id ? `${id}-title` : undefined}>{title}</h2>}
          {actions && <div class="card-actions">{actions}</div>}
        </header>
      )}
      {children}
    </section>
  )
}
