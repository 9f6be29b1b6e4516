import { EndpointSlots } from './endpoint-slots.js';
import { WaitingClaims, type WaitingClaim } from './waiting-claims.js';

interface Claim extends WaitingClaim {
  id: string;
}

const SHARED = 'https://hooks.example/in';
const claim = (id: string, accountId: string, url = SHARED): Claim => ({ id, accountId, url });
const ids = (taken: Iterable<{ claim: Claim }>) => [...taken].map((w) => w.claim.id);

/** Slots whose endpoints have all earned `perEndpoint` (each success doubles an endpoint's limit). */
function earned(total: number, perEndpoint: number, perAccount: number, urls: string[]): EndpointSlots {
  const slots = new EndpointSlots(total, perEndpoint, perAccount);
  for (const url of urls) for (let i = 0; i < 4; i++) slots.succeeded(url);
  return slots;
}

describe('WaitingClaims', () => {
  it('starts endpoints in turn, one claim each, while slots allow', () => {
    const slots = earned(3, 8, 8, ['https://a.example/', 'https://b.example/']);
    const waiting = new WaitingClaims<Claim>();
    waiting.add(
      [
        claim('a1', 'acc_1', 'https://a.example/'),
        claim('a2', 'acc_1', 'https://a.example/'),
        claim('a3', 'acc_1', 'https://a.example/'),
        claim('b1', 'acc_2', 'https://b.example/'),
      ],
      0,
    );
    expect(ids(waiting.take(slots))).toEqual(['a1', 'b1', 'a2']);
    expect(waiting.size).toBe(1);
    expect(slots.free).toBe(0);
  });

  it("lets another account's claim for the same URL start past a claim whose account is at its limit", () => {
    const slots = earned(10, 8, 2, [SHARED]);
    // acc_busy already has its two attempts under way elsewhere
    slots.tryTake('https://elsewhere.example/', 'acc_busy');
    slots.tryTake('https://elsewhere.example/', 'acc_busy');
    const waiting = new WaitingClaims<Claim>();
    waiting.add([claim('busy1', 'acc_busy'), claim('busy2', 'acc_busy'), claim('quiet1', 'acc_quiet')], 0);
    expect(ids(waiting.take(slots))).toEqual(['quiet1']);
    expect(waiting.size).toBe(2);
    // once the busy account's attempt ends, its claims start in their order
    slots.release('https://elsewhere.example/', 'acc_busy');
    expect(ids(waiting.take(slots))).toEqual(['busy1']);
  });

  it('starts none of an endpoint at its own limit, whichever account', () => {
    const slots = new EndpointSlots(10, 8, 8);
    const waiting = new WaitingClaims<Claim>();
    waiting.add([claim('x1', 'acc_1'), claim('x2', 'acc_2'), claim('x3', 'acc_3')], 0);
    // an endpoint not heard from yet: two at once
    expect(ids(waiting.take(slots))).toEqual(['x1', 'x2']);
    expect(waiting.size).toBe(1);
  });

  it('sees a slot freed between two takes', () => {
    const slots = earned(1, 8, 8, ['https://a.example/', 'https://b.example/']);
    const waiting = new WaitingClaims<Claim>();
    waiting.add([claim('a1', 'acc_1', 'https://a.example/'), claim('b1', 'acc_1', 'https://b.example/')], 0);
    const started: string[] = [];
    for (const next of waiting.take(slots)) {
      started.push(next.claim.id);
      // handed back at once (too old to start): its slot is free for the next
      slots.release(next.claim.url, next.claim.accountId);
    }
    expect(started).toEqual(['a1', 'b1']);
  });

  it('counts what waits per endpoint and account, and drains it', () => {
    const waiting = new WaitingClaims<Claim>();
    waiting.add([claim('x1', 'acc_1'), claim('x2', 'acc_2'), claim('y1', 'acc_1', 'https://y.example/')], 5);
    const byEndpoint = new Map([[SHARED, 1]]);
    const byAccount = new Map<string, number>();
    waiting.addHeld(byEndpoint, byAccount);
    expect(byEndpoint).toEqual(
      new Map([
        [SHARED, 3],
        ['https://y.example/', 1],
      ]),
    );
    expect(byAccount).toEqual(
      new Map([
        ['acc_1', 2],
        ['acc_2', 1],
      ]),
    );
    expect(waiting.drain().map((c) => c.id)).toEqual(['x1', 'x2', 'y1']);
    expect(waiting.size).toBe(0);
  });
});
