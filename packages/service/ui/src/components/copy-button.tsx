import { useEffect, useState } from 'preact/hooks'
import { Button } from './controls.tsx'

/**
 * Copies `text` to the clipboard and says so. Where the Clipboard API is refused (an insecure
 * origin, a denied permission) it falls back to a hidden textarea and `execCommand('copy')`, and
 * if that fails too it tells the person to copy by hand.
 */
export function CopyButton({ text, label = 'Copy', what }: { text: string; label?: string; what: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle')
  useEffect(() => {
    if (state === 'idle') return undefined
    const timer = window.setTimeout(() => setState('idle'), 2500)
    return () => window.clearTimeout(timer)
  }, [state])
  const copy = async () => setState((await copyText(text)) ? 'copied' : 'failed')
  return (
    <span class="copy">
      <Button size="small" onClick={copy} aria-label={`${label} ${what}`}>
        {state === 'copied' ? 'Copied' : label}
      </Button>
      <span class="copy-status" role="status">
        {state === 'failed' && <span class="field-error">Copying failed: select the text and copy it by hand.</span>}
      </span>
    </span>
  )
}

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text)
    return true
  } catch {
    const area = document.createElement('textarea')
    area.value = text
    area.setAttribute('readonly', '')
    area.style.position = 'fixed'
    area.style.opacity = '0'
    document.body.append(area)
    area.select()
    try {
      return document.execCommand('copy')
    } catch {
      return false
    } finally {
      area.remove()
    }
  }
}
