// The throwaway PostgreSQL behind the real Unleash server (test-fixtures/src/unleash-server.ts):
// Debian's postgresql, initdb in a temp folder, 127.0.0.1 and a free port, an empty `unleash`
// database (the approach of packages/service/test/helpers/postgres-server.ts).
import { execFile } from 'node:child_process'
import { chownSync, existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { freePort } from './ports.ts'
import { tempDir } from './temp-dir.ts'

const run = promisify(execFile)

export interface Postgres {
  port: number
  /** The temp folder holding the cluster. */
  dir: string
  /** The command line that stops the cluster (for the Unleash runner's orphan cleanup). */
  stopCommand: string[]
  stop(): Promise<void>
}

/** The newest `/usr/lib/postgresql/<version>/bin` holding initdb, or undefined. */
export function postgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql'
  if (!existsSync(root)) return undefined
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a))
  return versions[0] ? join(root, versions[0], 'bin') : undefined
}

/**
 * A throwaway PostgreSQL, unsynced (fsync off: nothing here must survive a crash), run as the
 * `postgres` OS user when we are root (initdb and postgres refuse root).
 */
export async function startPostgres(): Promise<Postgres> {
  const bin = postgresBinDir()
  if (!bin) throw new Error('PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb)')
  const dir = tempDir('unleash-pg')
  const asRoot = process.getuid?.() === 0
  if (asRoot) {
    const [uid, gid] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])])
    chownSync(dir.path, Number(uid.stdout.trim()), Number(gid.stdout.trim()))
  }
  const commandLine = (command: string, args: string[]) =>
    asRoot ? ['runuser', '-u', 'postgres', '--', join(bin, command), ...args] : [join(bin, command), ...args]
  const exec = (command: string, args: string[]) => {
    const [file, ...rest] = commandLine(command, args) as [string, ...string[]]
    return run(file, rest)
  }
  const data = join(dir.path, 'data')
  const port = await freePort()
  const stopArgs = ['-D', data, '-m', 'immediate', '-w', 'stop']
  let started = false
  const stop = async () => {
    if (started) await exec('pg_ctl', stopArgs).catch(() => undefined)
    dir.remove()
  }
  try {
    await exec('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'])
    const settings = `-p ${port} -k ${dir.path} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`
    started = true
    await exec('pg_ctl', ['-D', data, '-l', join(dir.path, 'log'), '-w', '-t', '60', '-o', settings, 'start'])
    await exec('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', 'unleash'])
  } catch (error) {
    await stop()
    throw error
  }
  return { port, dir: dir.path, stopCommand: commandLine('pg_ctl', stopArgs), stop }
}
