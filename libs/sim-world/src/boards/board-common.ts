import { fnv1a, hash32 } from '../prng.js';
import type { Listing, WorldJob } from '../types.js';
import { countryByCode } from '../vocab/countries.js';
import type { WorldBoard } from '../world-boards.js';

/** One board's answer as its ATS writes it, from what the board lists now. */
export interface BoardPage {
  board: WorldBoard;
  companyName: string;
  listings: readonly Listing[];
}

const ID_TAG = fnv1a('board-job-id');

/** A UUID-shaped id for a listing (Lever and Ashby ids look like this), fixed by the listing's own id. */
export function uuidOf(providerJobId: string): string {
  const seed = fnv1a(providerJobId);
  const hex = [0, 1, 2, 3].map((i) => hash32(seed, ID_TAG, i).toString(16).padStart(8, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A numeric id for a listing (Greenhouse ids are integers), fixed by the listing's own id. */
export function numericIdOf(providerJobId: string): number {
  return 4_000_000_000 + fnv1a(providerJobId) * 4 + (hash32(fnv1a(providerJobId), ID_TAG) % 4);
}

export function countryName(code: string | null): string | null {
  return countryByCode(code)?.name ?? null;
}

/**
 * The place as boards write it: "Austin, TX" in the US, "Toronto, Ontario, Canada" elsewhere,
 * "Remote - Germany" for a remote job without a city; null when nothing is known.
 */
export function placeText(job: WorldJob): string | null {
  const { city, region, countryCode, remote } = job.location;
  const country = countryName(countryCode);
  let place: string | null;
  if (city && countryCode === 'US' && region) place = `${city}, ${region}`;
  else place = [city, city ? region : null, country].filter((p): p is string => !!p).join(', ') || null;
  if (remote === true) return place ? (city ? `${place} (Remote)` : `Remote - ${place}`) : 'Remote';
  return place;
}

/** The description as HTML paragraphs, its text escaped. */
export function descriptionHtml(text: string | null): string | null {
  if (!text) return null;
  return text
    .split(/\n{2,}/)
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
    .join('');
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
