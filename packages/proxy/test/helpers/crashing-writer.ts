// Child process of the file storage crash test: writes two large payloads in turn, printing a
// dot after each write, until the test kills it with SIGKILL mid-write.
import { createFileStorage } from '../../src/storage/file.js'
import { crashPayloads } from './payloads.js'

const directory = process.argv[2]
if (!directory) throw new Error('usage: crashing-writer.ts <directory>')
const storage = createFileStorage({ directory })
const payloads = crashPayloads()
for (let i = 0; ; i++) {
  await storage.set('crash-app', payloads[i % payloads.length] as (typeof payloads)[number])
  process.stdout.write('.')
}
