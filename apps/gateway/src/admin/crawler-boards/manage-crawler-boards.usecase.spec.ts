import type { PrismaService } from '@jobs/db';
import { ApiError } from '../../http/api-error.js';
import type { WebhookTargetCheck } from '../../webhook-endpoints/webhook-target.check.js';
import { ManageCrawlerBoardsUseCase } from './manage-crawler-boards.usecase.js';

interface Row {
  ats: string;
  board: string;
  companyDomain: string;
  companyName: string;
  baseUrl: string;
}

function fakes(allowPrivate: boolean) {
  const rows = new Map<string, Row>();
  const reads = [
    { ats: 'lever', board: 'acme', lastReadAt: new Date('2026-11-22T10:00:00Z'), openJobs: 7, lastError: null },
  ];
  const prisma = {
    crawlerBoard: {
      upsert: ({ create, update, where }: { create: Row; update: Partial<Row>; where: { ats_board: Row } }) => {
        const key = `${where.ats_board.ats}:${where.ats_board.board}`;
        const row = rows.has(key) ? { ...rows.get(key)!, ...update } : create;
        rows.set(key, row);
        return Promise.resolve(row);
      },
      findMany: () => Promise.resolve([...rows.values()]),
      deleteMany: ({ where }: { where: Row }) =>
        Promise.resolve({ count: Number(rows.delete(`${where.ats}:${where.board}`)) }),
    },
    crawlerBoardRead: { findMany: () => Promise.resolve(reads) },
  } as unknown as PrismaService;
  const targets = {
    assertAllowed: (url: string, param: string) => {
      if (!allowPrivate && /127\.0\.0\.1|10\.\d/.test(url))
        return Promise.reject(new ApiError('invalid_request', `${param}: private`, { param }));
      return Promise.resolve();
    },
  } as unknown as WebhookTargetCheck;
  return { useCase: new ManageCrawlerBoardsUseCase(prisma, targets), rows };
}

describe('ManageCrawlerBoardsUseCase', () => {
  it('registers a board with the ATS host and a company name from the domain by default', async () => {
    const { useCase } = fakes(false);
    await expect(useCase.put({ ats: 'greenhouse', board: 'acme' }, { company_domain: 'acme.com' })).resolves.toEqual({
      ats: 'greenhouse',
      board: 'acme',
      company_domain: 'acme.com',
      company_name: 'Acme',
      base_url: 'https://boards-api.greenhouse.io',
    });
  });

  it('changes a registration in place, and lists each board with its last read', async () => {
    const { useCase } = fakes(true);
    await useCase.put({ ats: 'lever', board: 'acme' }, { company_domain: 'acme.com' });
    await useCase.put(
      { ats: 'lever', board: 'acme' },
      { company_domain: 'acme.com', company_name: 'Acme Inc', base_url: 'http://127.0.0.1:9/lever/' },
    );
    await useCase.put({ ats: 'ashby', board: 'beta' }, { company_domain: 'beta.io' });
    const { data } = await useCase.list();
    expect(data).toHaveLength(2);
    expect(data.find((b) => b.ats === 'lever')).toEqual({
      ats: 'lever',
      board: 'acme',
      company_domain: 'acme.com',
      company_name: 'Acme Inc',
      base_url: 'http://127.0.0.1:9/lever',
      last_read_at: '2026-11-22T10:00:00.000Z',
      open_jobs: 7,
      last_error: null,
    });
    expect(data.find((b) => b.ats === 'ashby')).toMatchObject({ last_read_at: null, open_jobs: 0, last_error: null });
  });

  it('refuses a private base_url unless WEBHOOK_ALLOW_PRIVATE, naming base_url', async () => {
    const { useCase, rows } = fakes(false);
    await expect(
      useCase.put({ ats: 'ashby', board: 'x' }, { company_domain: 'x.com', base_url: 'http://10.0.0.5' }),
    ).rejects.toMatchObject({ code: 'invalid_request', extras: { param: 'base_url' } });
    expect(rows.size).toBe(0);
  });

  it('removes a board, and removing it again is done already', async () => {
    const { useCase, rows } = fakes(false);
    await useCase.put({ ats: 'lever', board: 'acme' }, { company_domain: 'acme.com' });
    await useCase.remove({ ats: 'lever', board: 'acme' });
    await useCase.remove({ ats: 'lever', board: 'acme' });
    expect(rows.size).toBe(0);
  });
});
