// The caller's address for `remoteAddress`, as Express's `trust proxy` computes `req.ip`
// (docs/old-proxy-compatibility.md section 2.4): with `true`, the left-most X-Forwarded-For entry;
// with a list of trusted addresses/ranges, walk from the socket through X-Forwarded-For from
// right to left and take the first untrusted hop. IPv4-mapped IPv6 (`::ffff:1.2.3.4`) is
// reported as plain IPv4: the old proxy's `::ffff:` addresses broke remoteAddress strategies (#11).
import type { H3Event } from 'h3'
import ipaddr from 'ipaddr.js'

/** TRUST_PROXY: false, true, or the trusted addresses and ranges. */
export type TrustProxy = false | true | string[]

function plainAddress(address: string): string {
  return address.startsWith('::ffff:') && ipaddr.IPv4.isValid(address.slice(7)) ? address.slice(7) : address
}

/** The caller's address for a request, as TRUST_PROXY says to read it. */
export type ClientAddress = (event: H3Event) => string | undefined

export function compileClientAddress(trust: TrustProxy): ClientAddress {
  const fromHops = compileHops(trust)
  return (event) => fromHops(peerAddress(event), event.node.req.headers['x-forwarded-for'] as string | undefined)
}

// --- Internal helpers ---

/**
 * The address of the peer that sent the request: Node's socket's, or for a web `Request` (the
 * Worker, through h3's web adapter, has no socket) the one the runtime gave the adapter as
 * `event.context.peerAddress`.
 */
function peerAddress(event: H3Event): string | undefined {
  return event.node.req.socket?.remoteAddress || (event.context.peerAddress as string | undefined) || undefined
}

type FromHops = (socketAddress: string | undefined, forwardedFor: string | undefined) => string | undefined

function compileHops(trust: TrustProxy): FromHops {
  if (trust === false) return (socket) => (socket ? plainAddress(socket) : undefined)
  if (trust === true) {
    return (socket, forwarded) => {
      const first = forwarded?.split(',')[0]?.trim()
      return first ? plainAddress(first) : socket ? plainAddress(socket) : undefined
    }
  }
  const ranges = trust.map((entry) =>
    entry.includes('/')
      ? ipaddr.parseCIDR(entry)
      : ([ipaddr.parse(entry), ipaddr.parse(entry).kind() === 'ipv4' ? 32 : 128] as [
          ipaddr.IPv4 | ipaddr.IPv6,
          number,
        ]),
  )
  const trusted = (address: string): boolean => {
    let parsed: ipaddr.IPv4 | ipaddr.IPv6
    try {
      parsed = ipaddr.process(address)
    } catch {
      return false
    }
    return ranges.some(([range, bits]) => range.kind() === parsed.kind() && parsed.match(range, bits))
  }
  return (socket, forwarded) => {
    const hops = [
      socket ?? '',
      ...(forwarded
        ? forwarded
            .split(',')
            .map((hop) => hop.trim())
            .filter(Boolean)
            .reverse()
        : []),
    ]
    for (let i = 0; i < hops.length; i++) {
      if (i === hops.length - 1 || !trusted(hops[i]!)) return hops[i] ? plainAddress(hops[i]!) : undefined
    }
    return undefined
  }
}
