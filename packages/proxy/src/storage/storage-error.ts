/**
 * - `STORAGE_CORRUPT`: something is stored under the key but it is not a payload (bad JSON, wrong
 *   shape). Logged, then treated like "nothing stored"; the next good upstream answer replaces it.
 * - `STORAGE_UNTRUSTED`: a backup file someone else could have written (another owner, or
 *   writable by group or others). Not read; logged like a corrupt one, and replaced the same way.
 * - `STORAGE_UNAVAILABLE`: the backend could not be read or written (I/O error, Redis down or
 *   not answering within its timeouts, provider closed).
 * - `STORAGE_CONFIG_INVALID`: bad options, thrown synchronously by a factory at startup.
 */
export type StorageErrorCode =
  | 'STORAGE_CORRUPT'
  | 'STORAGE_UNTRUSTED'
  | 'STORAGE_UNAVAILABLE'
  | 'STORAGE_CONFIG_INVALID'

/**
 * What the built-in providers reject with. "Nothing stored" is never an error (`get` resolves
 * `undefined`), so a caller can tell it apart from "stored but unreadable" for its log line.
 */
export class StorageError extends Error {
  /** Brand checked by `isStorageError`, so the check survives two bundled copies. */
  static readonly __vexil_storage_error__ = true
  override name = 'StorageError'

  constructor(
    readonly code: StorageErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}

export function isStorageError(value: unknown): value is StorageError {
  const ctor = (value as { constructor?: { __vexil_storage_error__?: boolean } } | null)?.constructor
  return ctor?.__vexil_storage_error__ === true
}
