import type { ComponentChildren } from 'preact'
import { useId, useRef } from 'preact/hooks'
import { useAction } from '../hooks.ts'
import { Button } from './controls.tsx'
import { ErrorNote } from './error-note.tsx'

/**
 * A button that asks first, in a modal <dialog> (focus stays inside, Escape cancels). The
 * confirmed request runs inside the dialog: its button is busy meanwhile, and a failure is shown
 * there, next to what caused it; the dialog closes only on success.
 */
export function ConfirmButton({
  label,
  title,
  confirmLabel,
  onConfirm,
  children,
  size = 'small',
  ariaLabel,
}: {
  label: ComponentChildren
  title: string
  confirmLabel: string
  onConfirm: () => Promise<unknown>
  children: ComponentChildren
  size?: 'small'
  ariaLabel?: string
}) {
  const dialog = useRef<HTMLDialogElement>(null)
  const action = useAction()
  const id = useId()
  const open = () => {
    action.clear()
    dialog.current?.showModal()
  }
  const close = () => dialog.current?.close()
  const confirm = async (event: Event) => {
    event.preventDefault()
    if (await action.run(onConfirm)) close()
  }
  return (
    <>
      <Button variant="danger" size={size} onClick={open} aria-label={ariaLabel} aria-haspopup="dialog">
        {label}
      </Button>
      <dialog ref={dialog} class="dialog" aria-labelledby={`${id}-title`} aria-describedby={`${id}-body`}>
        <form onSubmit={confirm}>
          <h2 id={`${id}-title`}>{title}</h2>
          <div id={`${id}-body`} class="dialog-body">
            {children}
          </div>
          <ErrorNote error={action.error} />
          <div class="dialog-actions">
            <Button onClick={close} disabled={action.busy}>
              Cancel
            </Button>
            <Button type="submit" variant="danger" busy={action.busy}>
              {confirmLabel}
            </Button>
          </div>
        </form>
      </dialog>
    </>
  )
}
