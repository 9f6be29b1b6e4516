/**
 * The sandbox's fixed illustrative data: 40 canonical jobs at twelve FICTIONAL companies.
 * Every domain and URL uses the reserved `.example` top-level domain (RFC 2606), so no row can
 * ever name or link to a real company.
 *
 * The data is built once from a compact table so that it shows every feature of a full Job:
 * several sources per job (up to all seven providers), salaries in nine currencies and three
 * periods (declared and inferred, open-ended ranges), unknown values (`null`), remote and
 * on-site jobs, reposts, and two closed jobs. The sync sandbox's fixed page shows all 40;
 * a test key's filtered async search returns the closed ones only with `include_closed`.
 *
 * Sandbox time stands still at `SANDBOX_AS_OF`: every timestamp is relative to it, and
 * `posted_within_days` and the company profiles count back from it, so the same request always
 * gets the same answer.
 */
import {
  PROVIDER_SLUGS,
  type ClosedReason,
  type CompanyRef,
  type EmploymentType,
  type Job,
  type ProviderSlug,
  type SalaryOrigin,
  type SalaryPeriod,
  type Seniority,
  type Source,
} from '@jobs/contracts';

export const SANDBOX_AS_OF = '2026-11-01T12:00:00.000Z';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const asOf = Date.parse(SANDBOX_AS_OF);

function company(slug: string, name: string, hasDomain = true): CompanyRef {
  return { id: `cmp_sandbox_${slug.replaceAll('-', '_')}`, name, domain: hasDomain ? `${slug}.example` : null };
}

/** Twelve fictional employers; one has no known web domain (`domain: null`). */
export const SANDBOX_COMPANIES = {
  acme: company('acme-robotics', 'Acme Robotics'),
  bluefin: company('bluefin-analytics', 'Bluefin Analytics'),
  cobalt: company('cobalt-health', 'Cobalt Health'),
  driftwood: company('driftwood-games', 'Driftwood Games'),
  ember: company('ember-energy', 'Ember Energy'),
  fjordline: company('fjordline-payments', 'Fjordline Payments'),
  granite: company('granite-freight', 'Granite Freight'),
  harbor: company('harbor-learning', 'Harbor Learning'),
  kestrel: company('kestrel-aerospace', 'Kestrel Aerospace'),
  lumen: company('lumen-security', 'Lumen Security'),
  meridian: company('meridian-foods', 'Meridian Foods'),
  quietPines: company('quiet-pines-bakery', 'Quiet Pines Bakery', false),
} as const satisfies Record<string, CompanyRef>;

type CompanyKey = keyof typeof SANDBOX_COMPANIES;
type Place = readonly [city: string | null, region: string | null, country: string | null, remote: boolean | null];
type Pay = readonly [
  min: number | null,
  max: number | null,
  currency: string,
  period: SalaryPeriod,
  origin: SalaryOrigin,
];

interface Row {
  readonly at: CompanyKey;
  readonly title: string;
  readonly place: Place;
  readonly type: EmploymentType | null;
  readonly level: Seniority | null;
  readonly family: string | null;
  readonly pay: Pay | null;
  /** the providers that saw the job, in the order they first saw it */
  readonly via: readonly ProviderSlug[];
  /** days between the first sighting and SANDBOX_AS_OF */
  readonly age: number;
  readonly closed?: ClosedReason;
  readonly reposts?: number;
  readonly pReal: number;
  /** true when no source reported the description / posting date / live check */
  readonly sparse?: boolean;
}

const ROWS: readonly Row[] = [
  {
    at: 'acme',
    title: 'Senior Robotics Software Engineer',
    place: ['Boston', 'MA', 'US', false],
    type: 'full_time',
    level: 'senior',
    family: 'engineering',
    pay: [165000, 210000, 'USD', 'year', 'declared'],
    via: ['own_index', 'provider_a', 'provider_c'],
    age: 3,
    pReal: 0.97,
  },
  {
    at: 'acme',
    title: 'Embedded Firmware Engineer',
    place: ['Austin', 'TX', 'US', false],
    type: 'full_time',
    level: 'mid',
    family: 'engineering',
    pay: [120000, 150000, 'USD', 'year', 'declared'],
    via: ['provider_a', 'own_index'],
    age: 9,
    pReal: 0.93,
  },
  {
    at: 'acme',
    title: 'Robotics Engineering Intern',
    place: ['Boston', 'MA', 'US', false],
    type: 'internship',
    level: 'intern',
    family: 'engineering',
    pay: [32, 38, 'USD', 'hour', 'declared'],
    via: ['own_index'],
    age: 20,
    pReal: 0.88,
  },
  {
    at: 'acme',
    title: 'Remote Technical Writer',
    place: [null, null, 'US', true],
    type: 'contract',
    level: 'mid',
    family: 'content',
    pay: [55, 70, 'USD', 'hour', 'inferred'],
    via: ['provider_d', 'provider_f'],
    age: 14,
    pReal: 0.71,
  },
  {
    at: 'acme',
    title: 'VP of Engineering',
    place: ['Boston', 'MA', 'US', null],
    type: 'full_time',
    level: 'vp',
    family: 'engineering',
    pay: null,
    via: ['provider_b'],
    age: 41,
    pReal: 0.64,
  },
  {
    at: 'bluefin',
    title: 'Data Engineer',
    place: ['London', 'England', 'GB', false],
    type: 'full_time',
    level: 'mid',
    family: 'data',
    pay: [65000, 80000, 'GBP', 'year', 'declared'],
    via: ['own_index', 'provider_a', 'provider_b', 'provider_c', 'provider_d', 'provider_e', 'provider_f'],
    age: 2,
    reposts: 1,
    pReal: 0.99,
  },
  {
    at: 'bluefin',
    title: 'Senior Data Scientist',
    place: ['Manchester', 'England', 'GB', true],
    type: 'full_time',
    level: 'senior',
    family: 'data',
    pay: [85000, null, 'GBP', 'year', 'declared'],
    via: ['provider_c', 'own_index'],
    age: 6,
    pReal: 0.95,
  },
  {
    at: 'bluefin',
    title: 'Analytics Engineering Lead',
    place: ['Edinburgh', 'Scotland', 'GB', false],
    type: 'full_time',
    level: 'lead',
    family: 'data',
    pay: [95000, 115000, 'GBP', 'year', 'inferred'],
    via: ['provider_a', 'provider_e'],
    age: 11,
    pReal: 0.9,
  },
  {
    at: 'bluefin',
    title: 'Junior Data Analyst',
    place: ['London', 'England', 'GB', false],
    type: 'full_time',
    level: 'junior',
    family: 'data',
    pay: [32000, 38000, 'GBP', 'year', 'declared'],
    via: ['own_index'],
    age: 63,
    closed: 'filled',
    pReal: 0.92,
  },
  {
    at: 'cobalt',
    title: 'Clinical Data Manager',
    place: ['Berlin', 'Berlin', 'DE', false],
    type: 'full_time',
    level: 'mid',
    family: 'operations',
    pay: [62000, 74000, 'EUR', 'year', 'declared'],
    via: ['own_index', 'provider_b'],
    age: 5,
    pReal: 0.94,
  },
  {
    at: 'cobalt',
    title: 'Backend Engineer (Go)',
    place: ['Munich', 'Bavaria', 'DE', true],
    type: 'full_time',
    level: 'senior',
    family: 'engineering',
    pay: [78000, 95000, 'EUR', 'year', 'declared'],
    via: ['provider_b', 'provider_c', 'own_index'],
    age: 8,
    pReal: 0.96,
  },
  {
    at: 'cobalt',
    title: 'Registered Nurse, Telehealth',
    place: ['Hamburg', 'Hamburg', 'DE', true],
    type: 'part_time',
    level: 'mid',
    family: 'healthcare',
    pay: [3200, 3900, 'EUR', 'month', 'declared'],
    via: ['provider_d'],
    age: 17,
    pReal: 0.82,
  },
  {
    at: 'cobalt',
    title: 'Head of Product Design',
    place: ['Berlin', 'Berlin', 'DE', false],
    type: 'full_time',
    level: 'director',
    family: 'design',
    pay: [110000, 135000, 'EUR', 'year', 'inferred'],
    via: ['own_index', 'provider_a'],
    age: 26,
    pReal: 0.87,
  },
  {
    at: 'driftwood',
    title: 'Gameplay Programmer',
    place: ['Montreal', 'QC', 'CA', false],
    type: 'full_time',
    level: 'mid',
    family: 'engineering',
    pay: [85000, 105000, 'CAD', 'year', 'declared'],
    via: ['own_index', 'provider_a', 'provider_f'],
    age: 4,
    pReal: 0.95,
  },
  {
    at: 'driftwood',
    title: '3D Environment Artist',
    place: ['Vancouver', 'BC', 'CA', true],
    type: 'contract',
    level: 'senior',
    family: 'design',
    pay: [60, 75, 'CAD', 'hour', 'declared'],
    via: ['provider_e'],
    age: 12,
    pReal: 0.8,
  },
  {
    at: 'driftwood',
    title: 'QA Tester',
    place: ['Montreal', 'QC', 'CA', false],
    type: 'temporary',
    level: 'junior',
    family: 'quality',
    pay: [22, 25, 'CAD', 'hour', 'declared'],
    via: ['provider_f', 'provider_d'],
    age: 33,
    reposts: 3,
    pReal: 0.77,
  },
  {
    at: 'driftwood',
    title: 'Community Manager',
    place: ['Toronto', 'ON', 'CA', true],
    type: 'full_time',
    level: 'mid',
    family: 'marketing',
    pay: null,
    via: ['provider_c'],
    age: 48,
    pReal: 0.58,
    sparse: true,
  },
  {
    at: 'ember',
    title: 'Solar Field Technician',
    place: ['Perth', 'WA', 'AU', false],
    type: 'full_time',
    level: 'junior',
    family: 'operations',
    pay: [70000, 82000, 'AUD', 'year', 'declared'],
    via: ['own_index', 'provider_d'],
    age: 7,
    pReal: 0.93,
  },
  {
    at: 'ember',
    title: 'Grid Optimisation Engineer',
    place: ['Sydney', 'NSW', 'AU', true],
    type: 'full_time',
    level: 'senior',
    family: 'engineering',
    pay: [150000, 175000, 'AUD', 'year', 'inferred'],
    via: ['provider_a', 'provider_b', 'own_index', 'provider_e'],
    age: 10,
    pReal: 0.97,
  },
  {
    at: 'ember',
    title: 'Energy Trading Analyst',
    place: ['Melbourne', 'VIC', 'AU', false],
    type: 'full_time',
    level: 'mid',
    family: 'finance',
    pay: [110000, 130000, 'AUD', 'year', 'declared'],
    via: ['provider_b'],
    age: 19,
    pReal: 0.85,
  },
  {
    at: 'fjordline',
    title: 'Senior Frontend Engineer',
    place: ['Stockholm', 'Stockholm', 'SE', true],
    type: 'full_time',
    level: 'senior',
    family: 'engineering',
    pay: [62000, 74000, 'SEK', 'month', 'declared'],
    via: ['own_index', 'provider_a', 'provider_b', 'provider_c'],
    age: 1,
    pReal: 0.98,
  },
  {
    at: 'fjordline',
    title: 'Fraud Analyst',
    place: ['Gothenburg', 'Vastra Gotaland', 'SE', false],
    type: 'full_time',
    level: 'mid',
    family: 'finance',
    pay: [45000, 52000, 'SEK', 'month', 'inferred'],
    via: ['provider_c', 'provider_f'],
    age: 15,
    pReal: 0.86,
  },
  {
    at: 'fjordline',
    title: 'Chief Technology Officer',
    place: ['Stockholm', 'Stockholm', 'SE', false],
    type: 'full_time',
    level: 'c_level',
    family: 'engineering',
    pay: null,
    via: ['own_index'],
    age: 29,
    pReal: 0.79,
  },
  {
    at: 'fjordline',
    title: 'Site Reliability Engineer',
    place: [null, null, 'SE', true],
    type: 'full_time',
    level: 'senior',
    family: 'engineering',
    pay: [58000, 68000, 'SEK', 'month', 'declared'],
    via: ['provider_a', 'own_index'],
    age: 90,
    closed: 'expired',
    pReal: 0.9,
  },
  {
    at: 'granite',
    title: 'Logistics Coordinator',
    place: ['Rotterdam', 'South Holland', 'NL', false],
    type: 'full_time',
    level: 'junior',
    family: 'operations',
    pay: [36000, 42000, 'EUR', 'year', 'declared'],
    via: ['own_index', 'provider_d', 'provider_e'],
    age: 6,
    pReal: 0.94,
  },
  {
    at: 'granite',
    title: 'Warehouse Shift Lead',
    place: ['Eindhoven', 'North Brabant', 'NL', false],
    type: 'full_time',
    level: 'lead',
    family: 'operations',
    pay: [19, 23, 'EUR', 'hour', 'declared'],
    via: ['provider_e'],
    age: 22,
    reposts: 2,
    pReal: 0.83,
  },
  {
    at: 'granite',
    title: 'Machine Learning Engineer, Routing',
    place: ['Amsterdam', 'North Holland', 'NL', true],
    type: 'full_time',
    level: 'senior',
    family: 'data',
    pay: [85000, 105000, 'EUR', 'year', 'inferred'],
    via: ['provider_b', 'provider_c', 'provider_a'],
    age: 13,
    pReal: 0.91,
  },
  {
    at: 'harbor',
    title: 'Product Designer',
    place: ['Paris', 'Ile-de-France', 'FR', false],
    type: 'full_time',
    level: 'mid',
    family: 'design',
    pay: [48000, 58000, 'EUR', 'year', 'declared'],
    via: ['own_index', 'provider_b'],
    age: 5,
    pReal: 0.95,
  },
  {
    at: 'harbor',
    title: 'Curriculum Developer',
    place: ['Lyon', 'Auvergne-Rhone-Alpes', 'FR', true],
    type: 'contract',
    level: 'mid',
    family: 'content',
    pay: [400, 500, 'EUR', 'month', 'inferred'],
    via: ['provider_f'],
    age: 35,
    pReal: 0.62,
    sparse: true,
  },
  {
    at: 'harbor',
    title: 'Engineering Manager, Platform',
    place: ['Paris', 'Ile-de-France', 'FR', false],
    type: 'full_time',
    level: 'lead',
    family: 'engineering',
    pay: [90000, 110000, 'EUR', 'year', 'declared'],
    via: ['provider_a', 'own_index', 'provider_c'],
    age: 9,
    pReal: 0.96,
  },
  {
    at: 'kestrel',
    title: 'Flight Software Engineer',
    place: ['Tokyo', 'Tokyo', 'JP', false],
    type: 'full_time',
    level: 'mid',
    family: 'engineering',
    pay: [8000000, 11000000, 'JPY', 'year', 'declared'],
    via: ['own_index', 'provider_a', 'provider_b', 'provider_c', 'provider_d'],
    age: 4,
    pReal: 0.98,
  },
  {
    at: 'kestrel',
    title: 'Propulsion Test Technician',
    place: ['Nagoya', 'Aichi', 'JP', false],
    type: 'full_time',
    level: 'junior',
    family: 'operations',
    pay: [4500000, 5500000, 'JPY', 'year', 'inferred'],
    via: ['provider_d'],
    age: 27,
    pReal: 0.81,
  },
  {
    at: 'kestrel',
    title: 'Director of Mission Operations',
    place: ['Tokyo', 'Tokyo', 'JP', null],
    type: 'full_time',
    level: 'director',
    family: 'operations',
    pay: null,
    via: ['provider_b', 'provider_e'],
    age: 52,
    pReal: 0.74,
  },
  {
    at: 'lumen',
    title: 'Security Engineer',
    place: ['Bengaluru', 'Karnataka', 'IN', true],
    type: 'full_time',
    level: 'mid',
    family: 'security',
    pay: [2400000, 3200000, 'INR', 'year', 'declared'],
    via: ['own_index', 'provider_a', 'provider_e'],
    age: 2,
    pReal: 0.97,
  },
  {
    at: 'lumen',
    title: 'SOC Analyst (Night Shift)',
    place: ['Pune', 'Maharashtra', 'IN', false],
    type: 'full_time',
    level: 'junior',
    family: 'security',
    pay: [900000, 1200000, 'INR', 'year', 'inferred'],
    via: ['provider_c'],
    age: 16,
    pReal: 0.84,
  },
  {
    at: 'lumen',
    title: 'Penetration Tester',
    place: [null, null, null, true],
    type: 'contract',
    level: 'senior',
    family: 'security',
    pay: null,
    via: ['provider_f', 'provider_b'],
    age: 38,
    pReal: 0.69,
    sparse: true,
  },
  {
    at: 'meridian',
    title: 'Supply Chain Analyst',
    place: ['Sao Paulo', 'SP', 'BR', false],
    type: 'full_time',
    level: 'mid',
    family: 'operations',
    pay: [9000, 12000, 'BRL', 'month', 'declared'],
    via: ['own_index', 'provider_d'],
    age: 8,
    pReal: 0.92,
  },
  {
    at: 'meridian',
    title: 'Food Safety Inspector',
    place: ['Curitiba', 'PR', 'BR', false],
    type: 'full_time',
    level: null,
    family: 'quality',
    pay: null,
    via: ['provider_e', 'provider_f'],
    age: 24,
    pReal: 0.78,
  },
  {
    at: 'quietPines',
    title: 'Pastry Chef',
    place: ['Valencia', 'Valencia', 'ES', false],
    type: 'full_time',
    level: 'senior',
    family: null,
    pay: [24000, 28000, 'EUR', 'year', 'declared'],
    via: ['provider_f'],
    age: 18,
    pReal: 0.73,
    sparse: true,
  },
  {
    at: 'quietPines',
    title: 'Weekend Bakery Assistant',
    place: ['Valencia', 'Valencia', 'ES', false],
    type: 'part_time',
    level: null,
    family: null,
    pay: [10, null, 'EUR', 'hour', 'declared'],
    via: ['provider_f', 'provider_d'],
    age: 30,
    pReal: 0.7,
  },
];

const PROVIDER_HOSTS: Record<ProviderSlug, string> = {
  own_index: 'crawl.jobdata.example',
  provider_a: 'provider-a.example',
  provider_b: 'provider-b.example',
  provider_c: 'provider-c.example',
  provider_d: 'provider-d.example',
  provider_e: 'provider-e.example',
  provider_f: 'provider-f.example',
};

const iso = (ms: number) => new Date(ms).toISOString();
const slugOf = (title: string) =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** What each source contributed: the first sighting brings the core fields, later ones enrich. */
function contributedFields(row: Row, index: number): string[] {
  if (index === 0)
    return ['title', 'company', 'location', 'employment_type', ...(row.sparse ? [] : ['description', 'apply_url'])];
  const extras = [['salary', 'seniority'], ['location.remote', 'job_family'], ['posted_at'], ['last_verified_at']];
  return extras[(index - 1) % extras.length] ?? ['title'];
}

function buildJob(row: Row, index: number): Job {
  const n = String(index + 1).padStart(2, '0');
  const company = SANDBOX_COMPANIES[row.at];
  const firstSeen = asOf - row.age * DAY_MS;
  // A closed job stopped being seen a while ago; an open one was seen in the last hours.
  const lastSeen = row.closed ? firstSeen + Math.floor(row.age / 2) * DAY_MS : asOf - (index % 5) * HOUR_MS;
  const applyHost = company.domain ? `careers.${company.domain}` : 'jobs.quiet-pines.example';
  const applyUrl = row.sparse ? null : `https://${applyHost}/openings/${n}-${slugOf(row.title)}`;
  const sources: Source[] = row.via.map((provider, i) => ({
    provider,
    provider_job_id: `${provider.replace('_', '-')}-${1000 + index * 7 + i}`,
    url: provider === 'own_index' ? applyUrl : `https://${PROVIDER_HOSTS[provider]}/jobs/${1000 + index * 7 + i}`,
    first_seen_at: iso(firstSeen + i * 3 * HOUR_MS),
    last_seen_at: iso(Math.max(firstSeen + i * 3 * HOUR_MS, lastSeen - i * HOUR_MS)),
    fields: contributedFields(row, i),
  }));
  const [city, region, country_code, remote] = row.place;
  return {
    id: `job_sandbox_${n}`,
    title: row.title,
    company,
    location: { city, region, country_code, remote },
    employment_type: row.type,
    seniority: row.level,
    job_family: row.family,
    salary: row.pay
      ? { min: row.pay[0], max: row.pay[1], currency: row.pay[2], period: row.pay[3], origin: row.pay[4] }
      : null,
    description: row.sparse
      ? null
      : `${company.name} is hiring a ${row.title}. This is fictional ` +
        `sandbox data: the company, the job and every link are ` +
        `illustrative.`,
    apply_url: applyUrl,
    posted_at: row.sparse ? null : iso(firstSeen - 2 * DAY_MS),
    first_seen_at: iso(firstSeen),
    last_seen_at: iso(lastSeen),
    last_verified_at: row.sparse ? null : iso(lastSeen - HOUR_MS),
    status: row.closed ? 'closed' : 'open',
    closed_reason: row.closed ?? null,
    repost_count: row.reposts ?? 0,
    p_real: row.pReal,
    sources,
    // Jobs from the own index may be resold; partner data is licensed for display only.
    license: { display: true, resale: row.via.includes('own_index') },
  };
}

/** The 40 sandbox jobs, newest first sighting first. Frozen: callers never mutate them. */
export const SANDBOX_JOBS: readonly Job[] = Object.freeze(
  ROWS.map(buildJob).sort((a, b) => b.first_seen_at.localeCompare(a.first_seen_at) || a.id.localeCompare(b.id)),
);

/** Every provider appears in the sandbox data. */
export const SANDBOX_PROVIDERS: readonly ProviderSlug[] = PROVIDER_SLUGS;

/** One sandbox job by id (for `GET /jobs/{id}` with a test key); undefined when not in the sandbox. */
export function findSandboxJob(id: string): Job | undefined {
  return SANDBOX_JOBS.find((job) => job.id === id);
}
