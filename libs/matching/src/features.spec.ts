import { recordToMatch } from './canonical-index.js';
import { record, providerE } from './canonical-index.spec-helper.js';
import { blockingKeys } from './features.js';

describe('blockingKeys', () => {
  it('gives a name-only record a key its domain-bearing twin also has', () => {
    const withDomain = blockingKeys(recordToMatch(record()).features);
    const nameOnly = blockingKeys(recordToMatch(providerE({ apply_url: null })).features);
    expect(nameOnly.some((k) => withDomain.includes(k))).toBe(true);
    expect(nameOnly.every((k) => !k.startsWith('d:'))).toBe(true);
  });

  it('keys the apply URL without its tracking parameters', () => {
    const a = blockingKeys(
      recordToMatch(record({ apply_url: 'https://jobs.apexstack.com/o/x?id=1&utm_source=e' })).features,
    );
    const b = blockingKeys(recordToMatch(record({ apply_url: 'http://www.jobs.apexstack.com/o/x/?id=1' })).features);
    expect(a[0]).toBe('u:jobs.apexstack.com/o/x?id=1');
    expect(a[0]).toBe(b[0]);
  });
});
