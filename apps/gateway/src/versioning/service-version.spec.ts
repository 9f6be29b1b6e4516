import { SERVICE_VERSION } from '@jobs/contracts';
import { readRequestedVersion, unsupportedVersionMessage, versionInUse } from './service-version.js';

describe('Service-Version resolution', () => {
  it('accepts the one supported version, trimmed', () => {
    expect(readRequestedVersion('2026-10-01')).toEqual({ kind: 'supported', version: '2026-10-01' });
    expect(readRequestedVersion(' 2026-10-01 ')).toEqual({ kind: 'supported', version: '2026-10-01' });
  });

  it('treats a missing header as absent and anything else as unsupported', () => {
    expect(readRequestedVersion(undefined)).toEqual({ kind: 'absent' });
    expect(readRequestedVersion('2025-01-01')).toEqual({ kind: 'unsupported', value: '2025-01-01' });
    expect(readRequestedVersion('')).toEqual({ kind: 'unsupported', value: '' });
    expect(readRequestedVersion(['2026-10-01', '2026-10-01'])).toEqual({
      kind: 'unsupported',
      value: '2026-10-01, 2026-10-01',
    });
  });

  it('reports the asked version, else the pinned one, else the current one', () => {
    expect(versionInUse({ kind: 'supported', version: '2026-10-01' }, '2020-01-01')).toBe('2026-10-01');
    expect(versionInUse({ kind: 'absent' }, '2020-01-01')).toBe('2020-01-01');
    expect(versionInUse({ kind: 'absent' })).toBe(SERVICE_VERSION);
    expect(versionInUse({ kind: 'unsupported', value: 'x' }, '2020-01-01')).toBe(SERVICE_VERSION);
  });

  it('lists the supported versions when refusing one, and never echoes a huge value', () => {
    expect(unsupportedVersionMessage('1999-01-01')).toContain('Supported versions: 2026-10-01');
    expect(unsupportedVersionMessage('x'.repeat(500)).length).toBeLessThan(200);
  });
});
