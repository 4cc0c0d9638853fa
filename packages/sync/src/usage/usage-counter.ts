// Usage metrics as Unleash server SDKs count them: yes/no per flag for every evaluation, and the
// variant's name when a variant was asked for (unleash-client's isEnabled and getVariant). A
// flag's counts live in one object for the provider's lifetime, so the evaluation path can keep a
// reference to it and count with one increment; `take` copies the counts out and zeroes them.
import type { MetricsBucket, UsageBuckets } from './metrics-bucket.js'

export interface FlagUsage {
  yes: number
  no: number
  variants: Map<string, number> | undefined
}

export class UsageCounter implements UsageBuckets {
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

  /** The counts so far (flags with none left out), undefined when there are none; counting starts afresh at `now`. */
  take(now: Date): MetricsBucket | undefined {
    const toggles: MetricsBucket['toggles'] = {}
    let counted = false
    for (const [name, usage] of this.toggles) {
      if (usage.yes === 0 && usage.no === 0 && usage.variants === undefined) {
        // Counted by name only (an unknown flag, say): forgotten, so such names cannot pile up.
        if (!usage.referenced) this.toggles.delete(name)
        continue
      }
      toggles[name] = {
        yes: usage.yes,
        no: usage.no,
        variants: usage.variants ? Object.fromEntries(usage.variants) : {},
      }
      counted = true
      usage.yes = 0
      usage.no = 0
      usage.variants = undefined
    }
    const start = this.start
    this.start = now
    return counted ? { start: start.toISOString(), stop: now.toISOString(), toggles } : undefined
  }

  /** Adds back a bucket that could not be sent, so the next one carries its counts. */
  restore(bucket: MetricsBucket): void {
    const start = new Date(bucket.start)
    if (start < this.start) this.start = start
    for (const [name, usage] of Object.entries(bucket.toggles)) {
      const into = this.toggles.get(name) ?? this.add(name)
      into.yes += usage.yes
      into.no += usage.no
      const variants = Object.entries(usage.variants)
      if (variants.length === 0) continue
      const counts = (into.variants ??= new Map())
      for (const [variant, count] of variants) counts.set(variant, (counts.get(variant) ?? 0) + count)
    }
  }

  private add(name: string): FlagUsage & { referenced: boolean } {
    const usage: FlagUsage & { referenced: boolean } = { yes: 0, no: 0, variants: undefined, referenced: false }
    this.toggles.set(name, usage)
    return usage
  }
}
