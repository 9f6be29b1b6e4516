// Integration test against the real PostgreSQL: the company a record without a domain is filed under.
import { CompanyNameKeys } from '../companies/company-name-keys.js';
import { db, jobOf, record, repository, useThrowawayRepository } from './canonical-job.repository.spec-helper.js';

useThrowawayRepository();

const silent = { info: () => {}, warn: () => {}, error: () => {} } as never;

/** A different opening each call (no key shared with another), listed with no company domain. */
function domainless(company: string, title: string) {
  return record({
    provider: 'provider_e',
    title,
    company: { name: company, domain: null },
    apply_url: null,
    description: null,
    salary: null,
  });
}

describe('the company of a record without a domain', () => {
  it('is the one known company with a domain whose name has the same key, however spelt', async () => {
    const [known] = await repository.mergeBatch([
      record({ company: { name: 'Tailspin Toys', domain: 'tailspin.example' } }),
    ]);
    const [partnerOnly] = await repository.mergeBatch([domainless('TAILSPIN TOYS GmbH', 'Warehouse Lead')]);
    const first = await jobOf(known!.jobId);
    const job = await jobOf(partnerOnly!.jobId);
    expect(partnerOnly!.jobId).not.toBe(known!.jobId);
    expect(job.company).toEqual(first.company);
  });

  it('is a company without a domain while none with a domain has its name, and then the one that does', async () => {
    const [before] = await repository.mergeBatch([domainless('Fourth Coffee', 'Barista Trainer')]);
    expect((await jobOf(before!.jobId)).company).toMatchObject({ name: 'Fourth Coffee', domain: null });
    await repository.mergeBatch([
      record({ title: 'Roaster', company: { name: 'Fourth Coffee Inc.', domain: 'fourthcoffee.example' } }),
    ]);
    const [after] = await repository.mergeBatch([domainless('Fourth Coffee', 'Shift Supervisor')]);
    expect((await jobOf(after!.jobId)).company).toMatchObject({ domain: 'fourthcoffee.example' });
    // the job made before stays where it was until a record naming its domain joins it
    expect((await jobOf(before!.jobId)).company.domain).toBeNull();
  });

  it('is a company without a domain when two companies with domains share the name', async () => {
    await repository.mergeBatch([
      record({ title: 'Planner', company: { name: 'Contoso', domain: 'contoso.example' } }),
      record({ title: 'Buyer', company: { name: 'Contoso AG', domain: 'contoso-ag.example' } }),
    ]);
    const [ambiguous] = await repository.mergeBatch([domainless('Contoso', 'Forklift Driver')]);
    expect((await jobOf(ambiguous!.jobId)).company).toMatchObject({ name: 'Contoso', domain: null });
  });

  it('finds companies stored before name keys once dedupe has filled their keys', async () => {
    const [old] = await repository.mergeBatch([
      record({ title: 'Sommelier', company: { name: 'Wingtip Wines', domain: 'wingtip.example' } }),
    ]);
    await db.prisma.$executeRaw`UPDATE companies SET name_key = NULL WHERE domain = 'wingtip.example'`;
    const [unkeyed] = await repository.mergeBatch([domainless('Wingtip Wines', 'Cellar Hand')]);
    expect((await jobOf(unkeyed!.jobId)).company.domain).toBeNull();
    const keys = new CompanyNameKeys(db.prisma, silent);
    expect(await keys.fill()).toBeGreaterThanOrEqual(1);
    expect(await keys.fill()).toBe(0);
    const [keyed] = await repository.mergeBatch([domainless('Wingtip Wines', 'Tasting Host')]);
    expect((await jobOf(keyed!.jobId)).company).toEqual((await jobOf(old!.jobId)).company);
  });
});
