// When a cluster is ready (WORKERS=N): every one of the N workers serves flags, not just the one
// a probe happens to reach. Each worker reports what it serves; the primary combines the reports
// with what it syncs itself. A slot whose worker died counts as not ready until its replacement
// reports: that worker would answer 503 to its share of the traffic.

/** What one worker says it serves. */
export interface WorkerReadiness {
  /** The static scope has flags (or there is none). */
  static: boolean
  /** The static scope and every token scope it knows have flags. */
  all: boolean
  /** How many token-scope syncs it knows (the primary's count, once it has caught up). */
  scopes: number
}

export interface ClusterReadiness {
  /** For /proxy/health. */
  static: boolean
  /** For /internal-backstage/ready. */
  all: boolean
}

interface PrimaryReadiness {
  static: boolean
  all: boolean
  /** Token-scope syncs the primary runs. */
  scopes: number
}

/** `workers`: the reports of the live workers (undefined for one that has not reported yet); `size`: N. */
export function clusterReadiness(
  size: number,
  workers: ReadonlyArray<WorkerReadiness | undefined>,
  primary: PrimaryReadiness,
): ClusterReadiness {
  const full = workers.length >= size && workers.every((worker) => worker !== undefined)
  const reports = workers as readonly WorkerReadiness[]
  return {
    static: full && primary.static && reports.every((worker) => worker.static),
    all: full && primary.all && reports.every((worker) => worker.all && worker.scopes === primary.scopes),
  }
}
