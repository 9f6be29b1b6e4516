import { readFileSync } from 'node:fs';
import { CLIENT_VERSION } from './version.js';

describe('CLIENT_VERSION', () => {
  it('is the version in package.json (sent in User-Agent)', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(CLIENT_VERSION).toBe(pkg.version);
  });
});
