import { z } from 'zod';
import { ProviderSlugSchema, type NormalizedProviderRecord } from '@jobs/contracts';
import { postJson, type ProviderAdapter, type ProviderQuery } from './provider-adapter.js';
import { ifSet, partnerFilters } from './query.js';
import { collectPages, parsePage, validRecord } from './paging.js';
import { toCountryCode } from './normalize/country.js';
import { EMPLOYMENT_WORDS, fromVocab, lossyFields, toDomain, toIsoUtc, toUrl, vocabKey } from './normalize/fields.js';
import { parseAmount, toPeriod } from './normalize/salary.js';
import { htmlToText } from './normalize/text.js';

const ProviderFPosting = z.object({
  posting_id: z.union([z.number(), z.string().min(1)]),
  headline: z.string().min(1),
  org: z.object({ display_name: z.string().min(1), url: z.string().nullish() }),
  geo: z.object({ city: z.string().nullish(), admin1: z.string().nullish(), country: z.string().nullish() }).nullish(),
  remote_ok: z.boolean().nullish(),
  contract: z.string().nullish(),
  level: z.string().nullish(),
  compensation: z
    .object({
      amount_min: z.union([z.string(), z.number()]).nullish(),
      amount_max: z.union([z.string(), z.number()]).nullish(),
      currency: z.string(),
      interval: z.string(),
    })
    .nullish(),
  body_html: z.string().nullish(),
  apply: z.object({ url: z.string().nullish() }).nullish(),
  created: z.string().nullish(),
});
const ProviderFPage = z.object({
  status: z.literal('ok'),
  total: z.number().int().optional(),
  data: z.object({ postings: z.array(z.unknown()), cursor: z.object({ next: z.string().nullish() }).nullish() }),
});

const EMPLOYMENT = { ...EMPLOYMENT_WORDS, permanent: 'full_time', freelance: 'contract' } as const;
/** Coarse levels: ENTRY covers intern and junior, EXEC director, vp and c_level (the lower is taken). */
const SENIORITY = { entry: 'junior', mid: 'mid', senior: 'senior', lead: 'lead', exec: 'director' } as const;
/** The levels that stand for several seniorities: the value taken ranks as lossy. */
const SHARED_LEVELS: ReadonlySet<string> = new Set(['entry', 'exec']);
/** Headlines the board rewrote: "Sr."/"Jr." for Senior/Junior, or all in capitals. */
function rewrittenHeadline(headline: string): boolean {
  return /^(?:sr|jr)\.\s/i.test(headline) || (/[A-Z]/.test(headline) && headline === headline.toUpperCase());
}

const PAGE_SIZE = 100;

function amount(value: string | number | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'number' ? value : parseAmount(value);
}

/** provider_f posting → normalized record, or null when it cannot be read. */
export function mapProviderF(raw: unknown, seenAt: string): NormalizedProviderRecord | null {
  const parsed = ProviderFPosting.safeParse(raw);
  if (!parsed.success) return null;
  const p = parsed.data;
  const comp = p.compensation;
  const period = comp ? toPeriod(comp.interval) : null;
  const [min, max] = comp ? [amount(comp.amount_min), amount(comp.amount_max)] : [null, null];
  return validRecord({
    provider: 'provider_f',
    provider_job_id: String(p.posting_id),
    url: toUrl(p.apply?.url),
    title: p.headline.trim(),
    company: { name: p.org.display_name.trim(), domain: toDomain(p.org.url) },
    location: {
      city: p.geo?.city ?? null,
      region: p.geo?.admin1 ?? null,
      country_code: toCountryCode(p.geo?.country),
      remote: p.remote_ok ?? null,
    },
    employment_type: fromVocab(EMPLOYMENT, p.contract),
    seniority: fromVocab(SENIORITY, p.level),
    job_family: null,
    salary:
      comp && period && (min !== null || max !== null)
        ? { min, max, currency: comp.currency.toUpperCase(), period, origin: 'declared' }
        : null,
    description: htmlToText(p.body_html),
    apply_url: toUrl(p.apply?.url),
    posted_at: toIsoUtc(p.created),
    seen_at: seenAt,
    ...lossyFields({ title: rewrittenHeadline(p.headline), seniority: SHARED_LEVELS.has(vocabKey(p.level)) }),
  });
}

export class ProviderFAdapter implements ProviderAdapter {
  readonly provider = ProviderSlugSchema.enum.provider_f;

  constructor(private readonly baseUrl: string) {}

  async search(query: ProviderQuery): Promise<NormalizedProviderRecord[]> {
    const { keywords, country, since, listedSince, domain, remote } = partnerFilters(query);
    return collectPages<string | undefined>(query, {
      first: undefined,
      maxPageSize: PAGE_SIZE,
      map: mapProviderF,
      fetchPage: async (cursor, limit) => {
        // provider_f searches by POST: a JSON body, whose undefined fields are left out
        const request = {
          limit,
          keywords: keywords.length ? keywords : undefined,
          location: ifSet(country, (code) => ({ country: code })),
          since,
          listed_since: listedSince,
          domain,
          remote,
          cursor: cursor || undefined,
        };
        const url = new URL('/provider_f/api/search', this.baseUrl);
        const body = parsePage(this.provider, ProviderFPage, await postJson(this.provider, url, request, query.signal));
        return { items: body.data.postings, next: body.data.cursor?.next ?? null, total: body.total };
      },
    });
  }
}
