// A built command run to completion as a process, with only PATH and the given variables: its
// exit code and output (killed after 20 s, so a hang fails the test instead of the suite).
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'

export interface CommandRun {
  code: number | null
  stdout: string
  stderr: string
}

export function runCommand(bin: string, args: string[], env: Record<string, string> = {}): Promise<CommandRun> {
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run npm run build first (npm ci does)`)
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d))
    child.stderr.on('data', (d: Buffer) => (stderr += d))
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000)
    child.on('exit', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })
}
