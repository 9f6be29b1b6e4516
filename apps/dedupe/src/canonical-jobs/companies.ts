import type { Prisma } from '@jobs/db';
import { isBetterCompanyName, type CompanyNameOffer, type MatchFields } from '@jobs/matching';
import { newId } from '@jobs/observability';

/** The stored company of a job's fields (by domain, else by name). */
export interface CompanyIds {
  of(f: MatchFields): string;
}

/**
 * The companies of one merge transaction:
 * - those of jobs being made or moved (`fields`), made where missing: one insert in domain order
 *   (two batches meeting the same new companies wait for each other in the same order instead of
 *   deadlocking), one read. Companies without a domain are rare and found by name;
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
      INSERT INTO companies (id, domain, name, name_rank)
      SELECT v.id, v.domain, v.name, v.rank FROM unnest(${missing.map(() => newId('cmp'))}::text[], ${missing}::text[],
        ${named.map((o) => o.name)}::text[], ${named.map((o) => o.rank)}::smallint[]) AS v(id, domain, name, rank)
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
  const byName = new Map<string, string>();
  for (const name of [...new Set(fields.filter((f) => !f.companyDomain).map((f) => f.companyName))].sort()) {
    const existing = await tx.company.findFirst({ where: { domain: null, name }, select: { id: true } });
    byName.set(
      name,
      (existing ?? (await tx.company.create({ data: { id: newId('cmp'), domain: null, name }, select: { id: true } })))
        .id,
    );
  }
  return {
    of: (f) => {
      const id = f.companyDomain ? byDomain.get(f.companyDomain)?.id : byName.get(f.companyName);
      if (!id) throw new Error(`company of ${f.companyDomain ?? f.companyName} was not resolved`);
      return id;
    },
  };
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
    UPDATE companies AS c SET name = v.name, name_rank = v.rank
    FROM unnest(${ids}::text[], ${sorted.map((o) => o.name)}::text[], ${sorted.map((o) => o.rank)}::smallint[]) AS v(id,
      name, rank)
    WHERE c.id = v.id AND (c.name_rank IS NULL OR v.rank < c.name_rank OR (v.rank = c.name_rank AND v.name < c.name))`;
}
