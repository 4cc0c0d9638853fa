// @vexil/sync/files: the backup file and the private-file rules under it. Node's file system,
// kept apart from the package's index so the rest runs in any runtime.

export { type Backup, createFileBackup, type WarnFunction } from './backup-file.js'
export { readPrivateFile, UNTRUSTED, writePrivateFile } from './private-file.js'
