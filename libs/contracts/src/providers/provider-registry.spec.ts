import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PROVIDER_SLUGS } from '../public/providers.schema.js';
import { FRESHNESS_ORDER, PROVIDERS, providerBit, providerBits } from './provider-registry.js';

const migrations = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', 'prisma', 'migrations');

/** Every migration's SQL, by folder name. */
const migrationSql = (): Array<[string, string]> =>
  readdirSync(migrations, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => [entry.name, readFileSync(join(migrations, entry.name, 'migration.sql'), 'utf8')]);

describe('the provider registry', () => {
  it('gives every provider its own seen_by bit, one bit each, within an INTEGER', () => {
    const bits = PROVIDER_SLUGS.map(providerBit);
    for (const bit of bits) {
      expect(Number.isInteger(Math.log2(bit))).toBe(true);
      expect(bit).toBeLessThanOrEqual(2 ** 30);
    }
    expect(new Set(bits).size).toBe(PROVIDER_SLUGS.length);
  });

  it('keeps the bits the migrations wrote into seen_by', () => {
    const [, sql] = migrationSql().find(([name]) => name.endsWith('_job_seen_by'))!;
    const written = [...sql.matchAll(/WHEN '([a-z_]+)' THEN (\d+)/g)].map(([, slug, bit]) => [slug, Number(bit)]);
    expect(written.length).toBeGreaterThan(0);
    for (const [slug, bit] of written) expect(PROVIDERS[slug as keyof typeof PROVIDERS]?.seenByBit).toBe(bit);
  });

  it("keeps the plans' masks the migrations' partial indexes test", () => {
    // The own crawler alone (Free and Starter) and the Growth plan's three sources.
    const masks = new Map([
      ['canonical_jobs_open_own_first_seen_idx', providerBits(['own_index'])],
      ['canonical_jobs_open_growth_first_seen_idx', providerBits(['own_index', 'provider_a', 'provider_b'])],
    ]);
    const indexes = migrationSql().flatMap(([, sql]) =>
      [...sql.matchAll(/CREATE INDEX[^"]*"([a-z_]+)"[^;]*"seen_by" & (\d+)\)/g)].map(([, name, mask]) => [
        name,
        Number(mask),
      ]),
    );
    expect(indexes.map(([name]) => name).sort()).toEqual([...masks.keys()].sort());
    for (const [name, mask] of indexes) expect(mask).toBe(masks.get(name as string));
  });

  it('orders freshest_first by listing lag, lowest first', () => {
    expect(FRESHNESS_ORDER).toEqual([
      'provider_c',
      'own_index',
      'provider_a',
      'provider_f',
      'provider_b',
      'provider_d',
      'provider_e',
    ]);
    const lags = FRESHNESS_ORDER.map((slug) => PROVIDERS[slug].listingLagMs);
    expect(lags).toEqual([...lags].sort((a, b) => a - b));
  });

  it('checks every provider with a request under its own path', () => {
    for (const slug of PROVIDER_SLUGS) expect(PROVIDERS[slug].probe.path.startsWith(`/${slug}/`)).toBe(true);
  });
});
