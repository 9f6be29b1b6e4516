import { EndpointSlots } from './endpoint-slots.js';

describe('EndpointSlots', () => {
  it('bounds attempts per endpoint and leaves other endpoints their slots', () => {
    const slots = new EndpointSlots(10, 2);
    expect(slots.tryTake('https://slow.example/hook', 'acc_1')).toBe(true);
    expect(slots.tryTake('https://slow.example/hook', 'acc_1')).toBe(true);
    expect(slots.tryTake('https://slow.example/hook', 'acc_1')).toBe(false);
    expect(slots.saturated()).toEqual(['https://slow.example/hook']);
    expect(slots.inFlightTo('https://slow.example/hook')).toBe(2);
    expect(slots.inFlightTo('https://fast.example/hook')).toBe(0);
    expect(slots.tryTake('https://fast.example/hook', 'acc_1')).toBe(true);
    expect(slots.size).toBe(3);
    expect(slots.free).toBe(7);
  });

  it('bounds attempts overall', () => {
    const slots = new EndpointSlots(3, 5);
    for (const n of [1, 2, 3]) expect(slots.tryTake(`https://e${n}.example/`, 'acc_1')).toBe(true);
    expect(slots.tryTake('https://e4.example/', 'acc_1')).toBe(false);
    expect(slots.free).toBe(0);
    slots.release('https://e2.example/', 'acc_1');
    expect(slots.tryTake('https://e4.example/', 'acc_1')).toBe(true);
  });

  it('frees an endpoint when its attempts end, and refuses a release without a take', () => {
    const slots = new EndpointSlots(4, 1);
    slots.tryTake('https://a.example/', 'acc_1');
    expect(slots.saturated()).toEqual(['https://a.example/']);
    slots.release('https://a.example/', 'acc_1');
    expect(slots.saturated()).toEqual([]);
    expect(slots.size).toBe(0);
    expect(() => slots.release('https://a.example/', 'acc_1')).toThrow();
  });

  it('gives an endpoint not heard from two slots, doubles them with each success, and one after a hang', () => {
    const slots = new EndpointSlots(64, 16);
    const url = 'https://hooks.example/a';
    expect(slots.limitOf(url)).toBe(2);
    for (const limit of [4, 8, 16, 16]) {
      slots.succeeded(url);
      expect(slots.limitOf(url)).toBe(limit);
    }
    slots.hung(url);
    expect(slots.limitOf(url)).toBe(1);
    expect(slots.tryTake(url, 'acc_1')).toBe(true);
    expect(slots.tryTake(url, 'acc_1')).toBe(false);
    expect(slots.saturated()).toEqual([url]);
    slots.succeeded(url);
    expect(slots.limitOf(url)).toBe(2);
    expect(slots.limitOf('https://hooks.example/b')).toBe(2);
  });

  it('leaves four dead endpoints four slots, whatever their backlog', () => {
    const slots = new EndpointSlots(64, 16);
    const dead = [1, 2, 3, 4].map((n) => `https://dead${n}.example/hook`);
    for (const url of dead) {
      while (slots.tryTake(url, 'acc_1'));
      for (let i = slots.inFlightTo(url); i > 0; i--) slots.release(url, 'acc_1');
      slots.hung(url);
      expect(slots.tryTake(url, 'acc_1')).toBe(true);
      expect(slots.tryTake(url, 'acc_1')).toBe(false);
    }
    expect(slots.free).toBe(60);
  });

  it('leaves other accounts their slots however many slow endpoints one account has', () => {
    const slots = new EndpointSlots(64, 16, 32);
    for (let n = 0; n < 64; n++) slots.tryTake(`https://hooks.acme.example/${n}`, 'acc_acme');
    expect(slots.size).toBe(32);
    expect(slots.byAccount().get('acc_acme')).toBe(32);
    expect(slots.tryTake('https://hooks.acme.example/new', 'acc_acme')).toBe(false);
    expect(slots.tryTake('https://hooks.other.example/a', 'acc_other')).toBe(true);
    slots.release('https://hooks.acme.example/0', 'acc_acme');
    expect(slots.tryTake('https://hooks.acme.example/new', 'acc_acme')).toBe(true);
    expect(() => slots.release('https://hooks.acme.example/1', 'acc_nobody')).toThrow();
  });

  it('names the endpoints paced below a new one, busy or not', () => {
    const slots = new EndpointSlots(8, 4);
    slots.hung('https://dead.example/hook');
    slots.succeeded('https://fast.example/hook');
    expect(slots.slowed()).toEqual([['https://dead.example/hook', 1]]);
    slots.succeeded('https://dead.example/hook');
    expect(slots.slowed()).toEqual([]);
  });

  it('refuses non-positive limits', () => {
    expect(() => new EndpointSlots(0, 1)).toThrow(RangeError);
    expect(() => new EndpointSlots(1, 0)).toThrow(RangeError);
    expect(() => new EndpointSlots(1, 1, 0)).toThrow(RangeError);
  });
});
