import { pageAt } from './api.js';

describe('dashboard paging', () => {
  it('asks the first page without a cursor', () => {
    expect(pageAt('/watches', undefined)).toBe('/watches');
    expect(pageAt('/watches', null)).toBe('/watches');
  });

  it('adds the cursor as the query, or to the query the path already has', () => {
    expect(pageAt('/watches', 'a+b/c')).toBe('/watches?cursor=a%2Bb%2Fc');
    expect(pageAt('/ledger?job_id=job_1', 'c2')).toBe('/ledger?job_id=job_1&cursor=c2');
  });

  it('sends the cursor under the name the list reads it from', () => {
    expect(pageAt('/events?limit=25', 'c3', 'since')).toBe('/events?limit=25&since=c3');
  });
});
