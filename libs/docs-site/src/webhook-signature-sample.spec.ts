// The signature check the Webhooks guide gives customers to copy, run as published: it must accept
// every delivery the service signs, during a secret's rotation too (two `v1` values, the new first).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

type Verify = (rawBody: Buffer, header: string, secret: string, toleranceSeconds?: number) => boolean;

function publishedSample(): Verify {
  const guide = readFileSync(fileURLToPath(new URL('../guides/webhooks.md', import.meta.url)), 'utf8');
  const block = /```js\n([\s\S]*?function verifySignature[\s\S]*?)```/.exec(guide)?.[1];
  if (!block) throw new Error('the Webhooks guide has no verifySignature sample');
  const body = block
    .replace("import { createHmac, timingSafeEqual } from 'node:crypto';", '')
    .replace('export function', 'function');
  return new Function('createHmac', 'timingSafeEqual', 'Buffer', `${body}\nreturn verifySignature;`)(
    createHmac,
    timingSafeEqual,
    Buffer,
  ) as Verify;
}

const sign = (secret: string, t: number, body: Buffer) =>
  createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');

describe("the Webhooks guide's verifySignature", () => {
  const verify = publishedSample();
  const body = Buffer.from('{"id":"evt_1","type":"job.closed"}', 'utf8');
  const t = Math.floor(Date.now() / 1000);
  const [fresh, old] = ['whsec_new', 'whsec_old'];

  it('accepts a delivery signed with the secret, and refuses another secret, another body or an old t', () => {
    const header = `t=${t},v1=${sign(fresh, t, body)}`;
    expect(verify(body, header, fresh)).toBe(true);
    expect(verify(body, header, 'whsec_other')).toBe(false);
    expect(verify(Buffer.from('{}'), header, fresh)).toBe(false);
    const stale = t - 600;
    expect(verify(body, `t=${stale},v1=${sign(fresh, stale, body)}`, fresh)).toBe(false);
  });

  it('accepts a delivery during a rotation with either secret: the new one and the replaced one', () => {
    const header = `t=${t},v1=${sign(fresh, t, body)},v1=${sign(old, t, body)}`;
    expect(verify(body, header, fresh)).toBe(true);
    expect(verify(body, header, old)).toBe(true);
    expect(verify(body, header, 'whsec_other')).toBe(false);
  });
});
