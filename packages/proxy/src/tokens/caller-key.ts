// Who is asking for a token's validation, for the fair share of the validation queue
// (fair-queue.ts): the caller's address as TRUST_PROXY says to read it, an IPv6 address by its
// /64, since one host commonly holds a whole /64 and could otherwise ask as many callers.
import ipaddr from 'ipaddr.js'

export function callerKey(address: string | undefined): string {
  if (address === undefined) return ''
  if (!address.includes(':') || !ipaddr.IPv6.isValid(address)) return address
  const parts = ipaddr.IPv6.parse(address).parts
  return `${parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(':')}::/64`
}
