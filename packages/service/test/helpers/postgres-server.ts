import { execFile } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import pg from 'pg'
import { freePort } from '@vexil/test-fixtures/ports.ts'

const run = promisify(execFile)

export interface PostgresServer {
  /** Creates an empty database and returns its connection string. */
  createDatabase(): Promise<string>
  stop(): Promise<void>
}

/**
 * Starts a throwaway PostgreSQL server (Debian's postgresql) on 127.0.0.1 and a free port, in a
 * temp folder, as the `postgres` OS user when we are root (initdb and postgres refuse root).
 * Returns `undefined` when PostgreSQL is not installed, except under CI, where that is an error.
 */
export async function startPostgresServer(): Promise<PostgresServer | undefined> {
  const bin = findBinDir()
  if (!bin) {
    if (process.env.CI)
      throw new Error('PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb); CI must install it.')
    return undefined
  }
  const dir = mkdtempSync(join(tmpdir(), 'vexil-pg-'))
  const asRoot = process.getuid?.() === 0
  const pgUser = asRoot ? await uidOf('postgres') : undefined
  if (pgUser) chownSync(dir, pgUser.uid, pgUser.gid)
  const exec = (command: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', join(bin, command), ...args]) : run(join(bin, command), args)
  const data = join(dir, 'data')
  const port = await freePort()
  await exec('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'])
  await exec('pg_ctl', [
    '-D',
    data,
    '-l',
    join(dir, 'log'),
    '-w',
    '-t',
    '60',
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`,
    'start',
  ])
  const admin = `postgres://postgres@127.0.0.1:${port}/postgres`
  let counter = 0
  return {
    async createDatabase() {
      const name = `vexil_test_${process.pid}_${++counter}`
      const client = new pg.Client({ connectionString: admin })
      await client.connect()
      await client.query(`CREATE DATABASE ${name}`)
      await client.end()
      return `postgres://postgres@127.0.0.1:${port}/${name}`
    },
    async stop() {
      await exec('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined)
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

// --- Internal helpers ---

function findBinDir(): string | undefined {
  const root = '/usr/lib/postgresql'
  if (!existsSync(root)) return undefined
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a))
  return versions[0] ? join(root, versions[0], 'bin') : undefined
}

async function uidOf(user: string): Promise<{ uid: number; gid: number }> {
  const [uid, gid] = await Promise.all([run('id', ['-u', user]), run('id', ['-g', user])])
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) }
}
