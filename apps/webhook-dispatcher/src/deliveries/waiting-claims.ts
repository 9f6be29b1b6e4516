import type { EndpointSlots } from './endpoint-slots.js';

/** What a waiting claim needs to be placed: the endpoint it goes to and the account it belongs to. */
export interface WaitingClaim {
  url: string;
  accountId: string;
}

export interface Waiting<C extends WaitingClaim> {
  claim: C;
  /** when it was claimed (ms): a claim that waited too long is handed back, not started */
  claimedAt: number;
}

/**
 * Claimed deliveries waiting for a slot, per endpoint, endpoints taking turns. Several accounts may
 * deliver to one URL: a claim whose account has no slot left waits without holding back another
 * account's claim for that URL behind it. Pure.
 */
export class WaitingClaims<C extends WaitingClaim> {
  /** per endpoint, in the order they take turns (an endpoint served goes to the back) */
  private readonly byEndpoint = new Map<string, Waiting<C>[]>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  add(claims: readonly C[], claimedAt: number): void {
    for (const claim of claims) {
      const queue = this.byEndpoint.get(claim.url);
      if (queue) queue.push({ claim, claimedAt });
      else this.byEndpoint.set(claim.url, [{ claim, claimedAt }]);
    }
    this.count += claims.length;
  }

  /** Adds what waits to counts per endpoint and per account (the attempts under way). */
  addHeld(byEndpoint: Map<string, number>, byAccount: Map<string, number>): void {
    for (const [url, queue] of this.byEndpoint) {
      byEndpoint.set(url, (byEndpoint.get(url) ?? 0) + queue.length);
      for (const { claim } of queue) byAccount.set(claim.accountId, (byAccount.get(claim.accountId) ?? 0) + 1);
    }
  }

  /**
   * Takes claims out while slots allow, one per endpoint in turn, each with its slot already taken.
   * Lazy: a slot the caller frees between two takes is seen by the next.
   */
  *take(slots: EndpointSlots): Generator<Waiting<C>> {
    let took = true;
    while (took && slots.free > 0 && this.count > 0) {
      took = false;
      for (const [url, queue] of this.byEndpoint) {
        if (slots.free === 0) break;
        const at = firstStartable(slots, url, queue);
        if (at < 0) continue;
        const [next] = queue.splice(at, 1) as [Waiting<C>];
        this.byEndpoint.delete(url);
        if (queue.length > 0) this.byEndpoint.set(url, queue);
        this.count -= 1;
        took = true;
        yield next;
      }
    }
  }

  /** Every waiting claim, out of the queue (a stop hands them back). */
  drain(): C[] {
    const claims = [...this.byEndpoint.values()].flat().map((w) => w.claim);
    this.byEndpoint.clear();
    this.count = 0;
    return claims;
  }
}

/** Takes a slot for the first of an endpoint's claims that may start now; its place, or -1. */
function firstStartable(slots: EndpointSlots, url: string, queue: readonly Waiting<WaitingClaim>[]): number {
  const full = new Set<string>();
  for (const [i, { claim }] of queue.entries()) {
    if (full.has(claim.accountId)) continue;
    if (slots.tryTake(url, claim.accountId)) return i;
    // the endpoint at its own limit: none of its claims may start
    if (slots.inFlightTo(url) >= slots.limitOf(url)) return -1;
    full.add(claim.accountId);
  }
  return -1;
}
