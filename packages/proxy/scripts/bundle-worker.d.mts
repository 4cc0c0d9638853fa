import type { Metafile } from 'esbuild'

export interface WorkerBundle {
  outfile: string
  bytes: number
  gzipBytes: number
  metafile: Metafile
}

/** Bundles the Worker entry into one ES module (see bundle-worker.mjs). */
export function bundleWorker(options?: { outfile?: string; fromSource?: boolean }): Promise<WorkerBundle>
