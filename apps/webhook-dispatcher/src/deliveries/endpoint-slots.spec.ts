import { EndpointSlots } from './endpoint-slots.js';

describe('EndpointSlots', () => {
  it('bounds attempts per endpoint and leaves other endpoints their slots', () => {
    const slots = new EndpointSlots(10, 2);
    expect(slots.tryTake('https://slow.example/hook')).toBe(true);
    expect(slots.tryTake('https://slow.example/hook')).toBe(true);
    expect(slots.tryTake('https://slow.example/hook')).toBe(false);
    expect(slots.saturated()).toEqual(['https://slow.example/hook']);
    expect(slots.inFlightTo('https://slow.example/hook')).toBe(2);
    expect(slots.inFlightTo('https://fast.example/hook')).toBe(0);
    expect(slots.tryTake('https://fast.example/hook')).toBe(true);
    expect(slots.size).toBe(3);
    expect(slots.free).toBe(7);
  });

  it('bounds attempts overall', () => {
    const slots = new EndpointSlots(3, 5);
    for (const n of [1, 2, 3]) expect(slots.tryTake(`https://e${n}.example/`)).toBe(true);
    expect(slots.tryTake('https://e4.example/')).toBe(false);
    expect(slots.free).toBe(0);
    slots.release('https://e2.example/');
    expect(slots.tryTake('https://e4.example/')).toBe(true);
  });

  it('frees an endpoint when its attempts end, and refuses a release without a take', () => {
    const slots = new EndpointSlots(4, 1);
    slots.tryTake('https://a.example/');
    expect(slots.saturated()).toEqual(['https://a.example/']);
    slots.release('https://a.example/');
    expect(slots.saturated()).toEqual([]);
    expect(slots.size).toBe(0);
    expect(() => slots.release('https://a.example/')).toThrow();
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
    expect(slots.tryTake(url)).toBe(true);
    expect(slots.tryTake(url)).toBe(false);
    expect(slots.saturated()).toEqual([url]);
    slots.succeeded(url);
    expect(slots.limitOf(url)).toBe(2);
    expect(slots.limitOf('https://hooks.example/b')).toBe(2);
  });

  it('leaves four dead endpoints four slots, whatever their backlog', () => {
    const slots = new EndpointSlots(64, 16);
    const dead = [1, 2, 3, 4].map((n) => `https://dead${n}.example/hook`);
    for (const url of dead) {
      while (slots.tryTake(url));
      for (let i = slots.inFlightTo(url); i > 0; i--) slots.release(url);
      slots.hung(url);
      expect(slots.tryTake(url)).toBe(true);
      expect(slots.tryTake(url)).toBe(false);
    }
    expect(slots.free).toBe(60);
  });

  it('refuses non-positive limits', () => {
    expect(() => new EndpointSlots(0, 1)).toThrow(RangeError);
    expect(() => new EndpointSlots(1, 0)).toThrow(RangeError);
  });
});
