import type { Prisma } from '@jobs/db';
import { companyNameKey, isBetterCompanyName, type CompanyNameOffer, type MatchFields } from '@jobs/matching';
import { newId } from '@jobs/observability';

/** The stored company of a job's fields (by domain, else by name). */
export interface CompanyIds {
  of(f: MatchFields): string;
}

/**
 * The companies of one merge transaction:
 * - those of jobs being made or moved (`fields`), made where missing: one insert in domain order
 *   (two batches meeting the same new companies wait for each other in the same order instead of
 *   deadlocking), one read;
 * - for fields without a domain (some partners list none), the one company with a domain whose
 *   name has the same key (`companyNameKey`), so a company's watch sees the openings only such a
 *   partner lists; where no company or several have that key, a company without a domain, found
 *   or made by name (decision 0047);
 * - renamed where a record brings a better-ranked name for a stored domain (`offers`, the best
 *   per domain of the records merged; libs/matching `isBetterCompanyName`), so a company's name
 *   does not depend on which provider told the store first. `beforeRename` gets the ids of the
 *   renamed companies' open jobs first, so their lifecycle sees the new name as a change.
 */
export async function resolveCompanies(
  tx: Prisma.TransactionClient,
  fields: readonly MatchFields[],
  offers: ReadonlyMap<string, CompanyNameOffer>,
  beforeRename: (openJobIds: string[]) => Promise<void>,
): Promise<CompanyIds> {
  const needed = new Set(fields.flatMap((f) => (f.companyDomain ? [f.companyDomain] : [])));
  const domains = [...new Set([...needed, ...offers.keys()])].sort();
  const byDomain = new Map<string, { id: string; name: string; rank: number | null }>();
  const read = async (wanted: string[]) => {
    const rows = await tx.company.findMany({
      where: { domain: { in: wanted } },
      select: { id: true, domain: true, name: true, nameRank: true },
    });
    for (const c of rows) byDomain.set(c.domain!, { id: c.id, name: c.name, rank: c.nameRank });
  };
  if (domains.length > 0) await read(domains);
  const missing = [...needed].filter((d) => !byDomain.has(d)).sort();
  if (missing.length > 0) {
    const named = missing.map(
      (d) => offers.get(d) ?? { domain: d, name: fields.find((f) => f.companyDomain === d)!.companyName, rank: null },
    );
    await tx.$executeRaw`
      INSERT INTO companies (id, domain, name, name_rank, name_key)
      SELECT v.id, v.domain, v.name, v.rank, v.key FROM unnest(${missing.map(() => newId('cmp'))}::text[],
        ${missing}::text[], ${named.map((o) => o.name)}::text[], ${named.map((o) => o.rank)}::smallint[],
        ${named.map((o) => companyNameKey(o.name))}::text[]) AS v(id, domain, name, rank, key)
      ORDER BY v.domain
      ON CONFLICT (domain) DO NOTHING`;
    // another transaction may have made some meanwhile, with a name of its own
    await read(missing);
  }
  const renames = [...offers.values()].filter((o) => {
    const stored = byDomain.get(o.domain);
    return stored !== undefined && stored.name !== o.name && isBetterCompanyName(o, stored);
  });
  if (renames.length > 0) await rename(tx, renames, byDomain, beforeRename);
  const byName = await companiesByName(tx, fields);
  return {
    of: (f) => {
      const id = f.companyDomain ? byDomain.get(f.companyDomain)?.id : byName.get(f.companyName);
      if (!id) throw new Error(`company of ${f.companyDomain ?? f.companyName} was not resolved`);
      return id;
    },
  };
}

/** The companies of fields without a domain, by company name. */
async function companiesByName(
  tx: Prisma.TransactionClient,
  fields: readonly MatchFields[],
): Promise<Map<string, string>> {
  const byName = new Map<string, string>();
  const names = [...new Set(fields.filter((f) => !f.companyDomain).map((f) => f.companyName))].sort();
  if (names.length === 0) return byName;
  const keyOf = new Map(names.map((n) => [n, companyNameKey(n)]));
  const withDomain = await tx.$queryRaw<{ name_key: string; ids: string[] }[]>`
    SELECT name_key, array_agg(id) AS ids FROM companies
    WHERE name_key = ANY(${[...new Set(keyOf.values())]}::text[]) AND domain IS NOT NULL
    GROUP BY name_key`;
  const onlyOne = new Map(withDomain.flatMap((c) => (c.ids.length === 1 ? [[c.name_key, c.ids[0]!] as const] : [])));
  for (const name of names) {
    const known = onlyOne.get(keyOf.get(name)!);
    if (known) {
      byName.set(name, known);
      continue;
    }
    const existing = await tx.company.findFirst({ where: { domain: null, name }, select: { id: true } });
    const made =
      existing ??
      (await tx.company.create({
        data: { id: newId('cmp'), domain: null, name, nameKey: keyOf.get(name)! },
        select: { id: true },
      }));
    byName.set(name, made.id);
  }
  return byName;
}

/**
 * Renames are rare (a better source's first record for a domain): their jobs are tracked, then one update, re-checked
 * under the row locks.
 */
async function rename(
  tx: Prisma.TransactionClient,
  renames: readonly CompanyNameOffer[],
  byDomain: ReadonlyMap<string, { id: string }>,
  beforeRename: (openJobIds: string[]) => Promise<void>,
): Promise<void> {
  const sorted = [...renames].sort((a, b) => (a.domain < b.domain ? -1 : 1));
  const ids = sorted.map((o) => byDomain.get(o.domain)!.id);
  const jobs = await tx.$queryRaw<
    { id: string }[]
  >`SELECT id FROM canonical_jobs WHERE company_id = ANY(${ids}::text[]) AND status = 'open'`;
  await beforeRename(jobs.map((j) => j.id));
  await tx.$executeRaw`
    UPDATE companies AS c SET name = v.name, name_rank = v.rank, name_key = v.key
    FROM unnest(${ids}::text[], ${sorted.map((o) => o.name)}::text[], ${sorted.map((o) => o.rank)}::smallint[],
      ${sorted.map((o) => companyNameKey(o.name))}::text[]) AS v(id, name, rank, key)
    WHERE c.id = v.id AND (c.name_rank IS NULL OR v.rank < c.name_rank OR (v.rank = c.name_rank AND v.name < c.name))`;
}
