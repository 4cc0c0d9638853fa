// Usage metrics as Unleash server SDKs count them: yes/no per flag for every evaluation, and the
// variant's name when a variant was asked for (unleash-client's isEnabled and getVariant). A
// flag's counts live in one object for the provider's lifetime, so the evaluation path can keep a
// reference to it and count with one increment; `take` copies the counts out and zeroes them.

export interface FlagUsage {
  yes: number
  no: number
  variants: Map<string, number> | undefined
}

/** The counts since `start`, as `take` hands them over. */
export interface UsageBucket {
  start: Date
  toggles: Map<string, { yes: number; no: number; variants: Map<string, number> | undefined }>
}

/** The bucket of `POST /client/metrics`. */
export interface MetricsBucketBody {
  start: string
  stop: string
  toggles: Record<string, { yes: number; no: number; variants: Record<string, number> }>
}

export class UsageCounter {
  private readonly toggles = new Map<string, FlagUsage & { referenced: boolean }>()
  private start = new Date()

  /** The flag's counts, to increment directly; kept for the counter's lifetime. */
  usage(name: string): FlagUsage {
    const usage = this.toggles.get(name) ?? this.add(name)
    usage.referenced = true
    return usage
  }

  count(name: string, enabled: boolean): void {
    const usage = this.toggles.get(name) ?? this.add(name)
    if (enabled) usage.yes++
    else usage.no++
  }

  countVariant(name: string, enabled: boolean, variant: string): void {
    const usage = this.toggles.get(name) ?? this.add(name)
    if (enabled) usage.yes++
    else usage.no++
    const variants = (usage.variants ??= new Map())
    variants.set(variant, (variants.get(variant) ?? 0) + 1)
  }

  /** The counts so far (flags with none left out); counting starts afresh. */
  take(): UsageBucket {
    const bucket: UsageBucket = { start: this.start, toggles: new Map() }
    this.start = new Date()
    for (const [name, usage] of this.toggles) {
      if (usage.yes === 0 && usage.no === 0 && usage.variants === undefined) {
        // Counted by name only (an unknown flag, say): forgotten, so such names cannot pile up.
        if (!usage.referenced) this.toggles.delete(name)
        continue
      }
      bucket.toggles.set(name, { yes: usage.yes, no: usage.no, variants: usage.variants })
      usage.yes = 0
      usage.no = 0
      usage.variants = undefined
    }
    return bucket
  }

  /** Adds back a bucket that could not be sent, so the next one carries its counts. */
  restore(bucket: UsageBucket): void {
    if (bucket.start < this.start) this.start = bucket.start
    for (const [name, usage] of bucket.toggles) {
      const into = this.toggles.get(name) ?? this.add(name)
      into.yes += usage.yes
      into.no += usage.no
      if (!usage.variants) continue
      const variants = (into.variants ??= new Map())
      for (const [variant, count] of usage.variants) variants.set(variant, (variants.get(variant) ?? 0) + count)
    }
  }

  private add(name: string): FlagUsage & { referenced: boolean } {
    const usage: FlagUsage & { referenced: boolean } = { yes: 0, no: 0, variants: undefined, referenced: false }
    this.toggles.set(name, usage)
    return usage
  }
}

export function bucketBody(bucket: UsageBucket, stop: Date): MetricsBucketBody {
  const toggles: MetricsBucketBody['toggles'] = {}
  for (const [name, usage] of bucket.toggles) {
    toggles[name] = { yes: usage.yes, no: usage.no, variants: usage.variants ? Object.fromEntries(usage.variants) : {} }
  }
  return { start: bucket.start.toISOString(), stop: stop.toISOString(), toggles }
}
