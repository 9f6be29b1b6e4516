// CRAWLER_BOARDS_FILE at start-up against the real PostgreSQL: the boards it lists registered as
// PUT would register them (defaults, the base_url rule), a restart with the same file changes
// nothing, and a file that does not parse or names a refused base_url stops the start.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HostResolver } from '@jobs/webhook-targets';
import type { Logger } from '@jobs/observability';
import { throwawayDatabase, type ThrowawayDatabase } from '@jobs/db/testing';
import type { GatewayConfig } from '../../config/gateway.config.js';
import { WebhookTargetCheck } from '../../webhook-endpoints/webhook-target.check.js';
import { CrawlerBoardsFileLoader } from './crawler-boards-file.loader.js';
import { ManageCrawlerBoardsUseCase } from './manage-crawler-boards.usecase.js';

const logger = { info: () => undefined, warn: () => undefined } as unknown as Logger;
/**
 * Every public name resolves to a public address, but for names under `.down.example` (a DNS
 * failure); private ones are written as IPs in the files.
 */
const resolver = {
  resolve: (host: string) =>
    host.endsWith('.down.example')
      ? Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }))
      : Promise.resolve(['93.184.216.34']),
} as unknown as HostResolver;
let db: ThrowawayDatabase;
let dir: string;

beforeAll(async () => {
  db = await throwawayDatabase('boards_file');
  dir = await mkdtemp(join(tmpdir(), 'crawler-boards-'));
}, 60_000);

afterAll(async () => {
  await db?.drop();
  await rm(dir, { recursive: true, force: true });
});

beforeEach(async () => {
  await db.prisma.crawlerBoard.deleteMany();
});

async function start(content: string | null, allowPrivate = false): Promise<void> {
  const config = { WEBHOOK_ALLOW_PRIVATE: allowPrivate } as GatewayConfig;
  let file: string | undefined;
  if (content !== null) {
    file = join(dir, `boards-${Math.random().toString(36).slice(2)}.json`);
    await writeFile(file, content);
  }
  const boards = new ManageCrawlerBoardsUseCase(db.prisma, new WebhookTargetCheck(resolver, config));
  await new CrawlerBoardsFileLoader(boards, { ...config, CRAWLER_BOARDS_FILE: file }, logger).onApplicationBootstrap();
}

const rows = () =>
  db.prisma.crawlerBoard.findMany({
    orderBy: [{ ats: 'asc' }, { board: 'asc' }],
    select: { ats: true, board: true, companyDomain: true, companyName: true, baseUrl: true },
  });

const FILE = JSON.stringify([
  { ats: 'greenhouse', board: 'acme', company_domain: 'acme.com' },
  {
    ats: 'lever',
    board: 'leverdemo',
    company_domain: 'leverdemo.com',
    company_name: 'Lever Demo',
    base_url: 'https://lever.example/',
  },
]);

describe('CRAWLER_BOARDS_FILE', () => {
  it('registers every board it lists, with the defaults a PUT gives', async () => {
    await start(FILE);
    expect(await rows()).toEqual([
      {
        ats: 'greenhouse',
        board: 'acme',
        companyDomain: 'acme.com',
        companyName: 'Acme',
        baseUrl: 'https://boards-api.greenhouse.io',
      },
      {
        ats: 'lever',
        board: 'leverdemo',
        companyDomain: 'leverdemo.com',
        companyName: 'Lever Demo',
        baseUrl: 'https://lever.example',
      },
    ]);
  });

  it('changes nothing when a restart reads the same file, and keeps boards registered since', async () => {
    await start(FILE);
    await db.prisma.crawlerBoard.create({
      data: {
        ats: 'ashby',
        board: 'later',
        companyDomain: 'later.com',
        companyName: 'Later',
        baseUrl: 'https://api.ashbyhq.com',
      },
    });
    const before = await rows();
    await start(FILE);
    expect(await rows()).toEqual(before);
  });

  it('registers nothing without a file', async () => {
    await start(null);
    expect(await rows()).toEqual([]);
  });

  it('stops the start on a file that does not parse or does not match, registering none of it', async () => {
    await expect(start('[{"ats": "greenhouse", "board": "acme"')).rejects.toThrow();
    await expect(
      start(JSON.stringify([{ ats: 'workday', board: 'acme', company_domain: 'acme.com' }])),
    ).rejects.toThrow();
    expect(await rows()).toEqual([]);
  });

  it('holds base_url to the private-address rule, registering none of the file when one is refused', async () => {
    const file = JSON.stringify([
      { ats: 'greenhouse', board: 'first', company_domain: 'first.com' },
      { ats: 'ashby', board: 'local', company_domain: 'local.com', base_url: 'http://127.0.0.1:9/ashby' },
    ]);
    await expect(start(file)).rejects.toMatchObject({ code: 'invalid_request', extras: { param: 'base_url' } });
    expect(await rows()).toEqual([]);
    await start(file, true);
    expect((await rows()).map((r) => r.baseUrl)).toEqual([
      'http://127.0.0.1:9/ashby',
      'https://boards-api.greenhouse.io',
    ]);
  });

  it('registers a board whose host does not resolve at the moment, and starts', async () => {
    const file = JSON.stringify([
      { ats: 'lever', board: 'lapsed', company_domain: 'lapsed.com', base_url: 'https://ats.down.example' },
      { ats: 'greenhouse', board: 'acme', company_domain: 'acme.com' },
    ]);
    await start(file);
    expect((await rows()).map((r) => r.board)).toEqual(['acme', 'lapsed']);
  });
});
