import { scopePath } from './idempotency.gate.js';

const request = (url: string, route: string | undefined, params: Record<string, string> = {}) =>
  ({ url, routeOptions: { url: route }, params }) as unknown as Parameters<typeof scopePath>[0];

describe('scopePath', () => {
  it('scopes a key by the route matched, however its path was encoded', () => {
    expect(scopePath(request('/v1/jobs/%73earch', '/v1/jobs/search'))).toBe('/v1/jobs/search');
    expect(scopePath(request('/v1/jobs/search?x=1', '/v1/jobs/search'))).toBe('/v1/jobs/search');
  });

  it('writes the route’s parameters as the router decoded them, so a usual path scopes as sent', () => {
    const pause = request('/v1/watches/wat_%41b/pause', '/v1/watches/:id/pause', { id: 'wat_Ab' });
    expect(scopePath(pause)).toBe('/v1/watches/wat_Ab/pause');
    expect(scopePath(request('/v1/watches/a%2Fb/pause', '/v1/watches/:id/pause', { id: 'a/b' }))).toBe(
      '/v1/watches/a%2Fb/pause',
    );
  });

  it('falls back to the path as sent where no route matched', () => {
    expect(scopePath(request('/v1/nowhere?x=1', undefined))).toBe('/v1/nowhere');
  });
});
