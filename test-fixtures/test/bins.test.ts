// The commands the packages declare exist before anything is built: npm links a workspace's bins
// during `npm install`, before `prepare` builds dist/, and does not link a bin whose file is
// missing, so `npx vexil` after one install needs the bin file to be in the repository.
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const root = new URL('../../', import.meta.url)
const tracked = new Set(execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).split('\n'))
const packages = readdirSync(new URL('packages/', root)).map((name) => ({
  dir: `packages/${name}`,
  manifest: JSON.parse(readFileSync(new URL(`packages/${name}/package.json`, root), 'utf8')) as {
    bin?: Record<string, string>
    files?: string[]
  },
}))

describe('package bins', () => {
  const bins = packages.flatMap(({ dir, manifest }) =>
    Object.entries(manifest.bin ?? {}).map(([name, path]) => ({ dir, manifest, name, path })),
  )

  it('the vexil command is one of them', () => {
    expect(bins.map((bin) => bin.name)).toContain('vexil')
  })

  it.each(bins)(
    '$name is a tracked, executable file outside dist/, shipped in the package',
    ({ dir, manifest, path }) => {
      const file = `${dir}/${path.replace(/^\.\//, '')}`
      expect(file).not.toMatch(/\/dist\//)
      expect(tracked.has(file), file).toBe(true)
      expect(statSync(new URL(file, root)).mode & 0o111, file).not.toBe(0)
      expect(manifest.files, dir).toContain(path.replace(/^\.\//, '').split('/')[0])
      expect(readFileSync(new URL(file, root), 'utf8')).toMatch(/^#!\/usr\/bin\/env node\n/)
    },
  )
})
