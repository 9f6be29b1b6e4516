import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from '../app.module.js';
import { configureApp } from '../configure-app.js';

const T0 = Date.UTC(2025, 5, 2, 12, 0, 0);
const TOKEN = 'sim-spec-admin-token';

describe('provider-sim: ATS boards over HTTP', () => {
  let app: NestFastifyApplication;
  let base: string;

  beforeAll(async () => {
    app = await NestFactory.create<NestFastifyApplication>(
      AppModule.register({
        seed: 42,
        timeoutMs: 200,
        adminToken: TOKEN,
        clock: () => T0,
        slots: 3000,
        companies: 300,
        boards: 3,
      }),
      new FastifyAdapter(),
      { bodyParser: false, logger: false },
    );
    configureApp(app);
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = await app.getUrl();
  }, 60_000);

  afterAll(async () => {
    await app.close();
  });

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the simulator's own shapes, checked below
  async function control(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
    const res = await fetch(`${base}/_control${path}`, {
      method,
      headers: {
        authorization: `Bearer ${TOKEN}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  }

  it('publishes the first companies on boards from the start, one ATS in turn', async () => {
    const { body } = await control('GET', '/world/boards');
    expect(body.data.map((b: { ats: string }) => b.ats)).toEqual(['greenhouse', 'lever', 'ashby']);
    const lever = body.data[1];
    expect(lever.board).toBe(lever.company_domain.replace(/\./g, '-'));
    const res = await fetch(`${base}/lever/v0/postings/${lever.board}?mode=json`);
    expect(res.status).toBe(200);
    expect(Array.isArray(await res.json())).toBe(true);
  });

  it('serves each ATS in its format with an ETag, and 304 to a request that names it', async () => {
    await control('PUT', '/world/boards/greenhouse/acme', { company_domain: 'acme.example' });
    await control('POST', '/world/jobs', {
      company_domain: 'acme.example',
      title: 'Data Engineer',
      providers: ['own_index'],
    });
    const res = await fetch(`${base}/greenhouse/v1/boards/acme/jobs?content=true`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await res.json()) as { jobs: { title: string }[] };
    expect(body.jobs.map((j) => j.title)).toEqual(['Data Engineer']);
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    const again = await fetch(`${base}/greenhouse/v1/boards/acme/jobs?content=true`, {
      headers: { 'if-none-match': etag },
    });
    expect(again.status).toBe(304);
    await control('POST', '/world/jobs', {
      company_domain: 'acme.example',
      title: 'ML Engineer',
      providers: ['own_index'],
    });
    const changed = await fetch(`${base}/greenhouse/v1/boards/acme/jobs?content=true`, {
      headers: { 'if-none-match': etag },
    });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
  });

  it('answers 404 for a board nobody publishes, and stops serving a removed one', async () => {
    expect((await fetch(`${base}/ashby/posting-api/job-board/nobody`)).status).toBe(404);
    await control('PUT', '/world/boards/ashby/gone', { company_domain: 'gone.example' });
    expect((await fetch(`${base}/ashby/posting-api/job-board/gone`)).status).toBe(200);
    expect((await control('DELETE', '/world/boards/ashby/gone')).status).toBe(204);
    expect((await fetch(`${base}/ashby/posting-api/job-board/gone`)).status).toBe(404);
  });

  it('fails a board as set: an error, no answer until the timeout, or a page that is not its format', async () => {
    await control('PUT', '/world/boards/lever/flaky', { company_domain: 'flaky.example', fail: 'error' });
    expect((await fetch(`${base}/lever/v0/postings/flaky?mode=json`)).status).toBe(503);
    await control('PUT', '/world/boards/lever/flaky', { company_domain: 'flaky.example', fail: 'garbage' });
    const garbage = await fetch(`${base}/lever/v0/postings/flaky?mode=json`);
    expect(garbage.status).toBe(200);
    expect(await garbage.text()).toMatch(/^<!DOCTYPE html>/);
    await control('PUT', '/world/boards/lever/flaky', { company_domain: 'flaky.example', fail: 'timeout' });
    expect((await fetch(`${base}/lever/v0/postings/flaky?mode=json`)).status).toBe(503);
    const listed = await control('GET', '/world/boards');
    expect(listed.body.data).toContainEqual({
      ats: 'lever',
      board: 'flaky',
      company_domain: 'flaky.example',
      fail: 'timeout',
    });
    await control('PUT', '/world/boards/lever/flaky', { company_domain: 'flaky.example' });
    expect((await fetch(`${base}/lever/v0/postings/flaky?mode=json`)).status).toBe(200);
  });

  it('answers a board with one unreadable item first: its id and nothing else, a new body', async () => {
    const { body } = await control('GET', '/world/boards');
    const paths = { greenhouse: '/v1/boards/%/jobs', lever: '/v0/postings/%', ashby: '/posting-api/job-board/%' };
    for (const { ats, board, company_domain } of body.data as {
      ats: keyof typeof paths;
      board: string;
      company_domain: string;
    }[]) {
      const url = `${base}/${ats}${paths[ats].replace('%', board)}`;
      const items = (answer: unknown): unknown[] =>
        Array.isArray(answer) ? answer : (answer as { jobs: unknown[] }).jobs;
      const plain = await fetch(url);
      const readable = items(await plain.json());
      await control('PUT', `/world/boards/${ats}/${board}`, { company_domain, fail: 'unreadable_item' });
      const broken = await fetch(url);
      expect(broken.status).toBe(200);
      expect(broken.headers.get('etag')).not.toBe(plain.headers.get('etag'));
      const [first, ...rest] = items(await broken.json());
      expect(Object.keys(first as object)).toEqual(['id']);
      expect(rest).toEqual(readable);
      await control('PUT', `/world/boards/${ats}/${board}`, { company_domain });
      expect((await fetch(url)).headers.get('etag')).toBe(plain.headers.get('etag'));
    }
  });

  it('refuses an unknown ATS, a bad board name and an unknown field', async () => {
    expect((await control('PUT', '/world/boards/workday/x', { company_domain: 'x.example' })).status).toBe(404);
    const badName = await control('PUT', '/world/boards/lever/no%20space', { company_domain: 'x.example' });
    expect(badName).toMatchObject({ status: 400, body: { error: { param: 'board' } } });
    expect((await control('PUT', '/world/boards/lever/x', { company_domain: 'x.example', other: 1 })).status).toBe(400);
  });
});
