import { digestOf } from '@jobs/cursors';
import { claimedId } from './claimed-id.js';

const claim = (key: string, fingerprint: string) => ({
  key,
  record: {
    fingerprint,
    state: 'running' as const,
    request_id: 'req_1',
    lease_until: 0,
    service_version: '2026-10-01',
  },
});

const searchIdFor = (c: ReturnType<typeof claim> | undefined) => claimedId('srch', 'search', c);

describe('claimedId', () => {
  it('names the same search for every retry of one keyed request', () => {
    const id = searchIdFor(claim('idem:acc_1:POST:/v1/searches:k1', 'fp1'));
    expect(id).toMatch(/^srch_[A-Za-z0-9_-]{24}$/);
    expect(searchIdFor(claim('idem:acc_1:POST:/v1/searches:k1', 'fp1'))).toBe(id);
  });

  it('differs for another key, another account scope or another body, and is random without a key', () => {
    const id = searchIdFor(claim('idem:acc_1:POST:/v1/searches:k1', 'fp1'));
    expect(searchIdFor(claim('idem:acc_2:POST:/v1/searches:k1', 'fp1'))).not.toBe(id);
    expect(searchIdFor(claim('idem:acc_1:POST:/v1/searches:k2', 'fp1'))).not.toBe(id);
    expect(searchIdFor(claim('idem:acc_1:POST:/v1/searches:k1', 'fp2'))).not.toBe(id);
    expect(searchIdFor(undefined)).not.toBe(searchIdFor(undefined));
    expect(searchIdFor(undefined)).toMatch(/^srch_/);
  });

  it('keeps the ids an earlier version derived for async searches', () => {
    // a keyed retry that spans an upgrade must still name the search its first attempt made
    expect(searchIdFor(claim('idem:acc_1:POST:/v1/searches:k1', 'fp1'))).toBe(
      `srch_${digestOf({ search: 'idem:acc_1:POST:/v1/searches:k1', body: 'fp1' }, 'base64url').slice(0, 24)}`,
    );
  });

  it("gives a watch or a rotation its own id, not a search's", () => {
    const c = claim('idem:acc_1:POST:/v1/watches:k1', 'fp1');
    expect(claimedId('wat', 'watch', c)).toMatch(/^wat_[A-Za-z0-9_-]{24}$/);
    expect(claimedId('wat', 'watch', c).slice(4)).not.toBe(claimedId('srch', 'search', c).slice(5));
    expect(claimedId('wat', 'watch', claim('idem:acc_1:POST:/v1/watches:k1', 'fp2'))).not.toBe(
      claimedId('wat', 'watch', c),
    );
  });

  it('names something new for the key reused after its record expired (another first claim)', () => {
    const at = (claimedAt: number) => {
      const c = claim('idem:acc_1:POST:/v1/searches:k1', 'fp1');
      return { ...c, record: { ...c.record, claimed_at: claimedAt } };
    };
    expect(searchIdFor(at(1_000))).toBe(searchIdFor(at(1_000)));
    expect(searchIdFor(at(1_000))).not.toBe(searchIdFor(at(2_000)));
    expect(searchIdFor(at(1_000))).not.toBe(searchIdFor(claim('idem:acc_1:POST:/v1/searches:k1', 'fp1')));
  });
});
