import { SERVICE_VERSION } from '@jobs/contracts';

/** Every version this gateway answers; the spec allows exactly one today. */
export const SUPPORTED_VERSIONS: readonly string[] = [SERVICE_VERSION];

export type RequestedVersion =
  { kind: 'absent' } | { kind: 'supported'; version: string } | { kind: 'unsupported'; value: string };

/** Reads the `Service-Version` request header. A repeated header is unsupported, not guessed at. */
export function readRequestedVersion(header: string | string[] | undefined): RequestedVersion {
  if (header === undefined) return { kind: 'absent' };
  const value = Array.isArray(header) ? header.join(', ') : header.trim();
  return SUPPORTED_VERSIONS.includes(value) ? { kind: 'supported', version: value } : { kind: 'unsupported', value };
}

/**
 * The version a response reports: the one asked for, else the account's pinned version, else
 * (no account known, or an unsupported value that is about to be refused) the current version.
 */
export function versionInUse(requested: RequestedVersion, pinnedVersion?: string): string {
  if (requested.kind === 'supported') return requested.version;
  if (requested.kind === 'absent' && pinnedVersion) return pinnedVersion;
  return SERVICE_VERSION;
}

export function unsupportedVersionMessage(value: string): string {
  const shown = value.length > 40 ? `${value.slice(0, 40)}...` : value;
  return (
    `Service-Version "${shown}" is not supported. Supported ` +
    `versions: ${SUPPORTED_VERSIONS.join(', ')}. Omit the header ` +
    `to use your account's pinned version.`
  );
}
