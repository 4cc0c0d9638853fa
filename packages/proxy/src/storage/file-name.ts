import { createHash } from 'node:crypto'

/**
 * Replaced by "_": "/" exactly as the old proxy did (unleash-client-node `safeName`), plus what
 * is unsafe in a file name elsewhere: "\", the characters Windows forbids and control characters
 * (NUL included). The old proxy wrote those raw, so only app names containing them get a
 * different name than it gave them.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it replaces
const UNSAFE = /[/\\<>:"|?*\u0000-\u001f\u007f]/g
/** Keeps the name, and the temp file name built on it, under the 255-byte limit of most file systems. */
const MAX_KEY_BYTES = 200
const HASH_CHARS = 16

/**
 * The backup file name for an app name: `unleash-backup-<key>.json`, the old proxy's name, so a
 * backup written by it is read after switching (and the other way round). Keys that differ only
 * in replaced characters share a file (`a/b` and `a_b`), as they did in the old proxy. A key
 * longer than 200 bytes once made safe is cut, and a hash of the whole key keeps it unique.
 */
export function backupFileName(key: string): string {
  let safe = key.replace(UNSAFE, '_')
  if (Buffer.byteLength(safe) > MAX_KEY_BYTES) {
    const hash = createHash('sha256').update(key).digest('hex').slice(0, HASH_CHARS)
    safe = `${truncateUtf8(safe, MAX_KEY_BYTES - HASH_CHARS - 1)}-${hash}`
  }
  return `unleash-backup-${safe}.json`
}

// --- Internal helpers ---

/** The longest prefix of `text` that fits in `maxBytes` of UTF-8, never splitting a character. */
function truncateUtf8(text: string, maxBytes: number): string {
  let bytes = 0
  let end = 0
  for (const char of text) {
    bytes += Buffer.byteLength(char)
    if (bytes > maxBytes) break
    end += char.length
  }
  return text.slice(0, end)
}
