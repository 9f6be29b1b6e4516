import { isDomain, normalizeDomain } from './domains.js';
import type { Market } from './market.js';
import type { Company } from './types.js';
import { WorldError } from './world-error.js';

/** The market's companies and those the control API added, by domain. */
export class WorldCompanies {
  private readonly added = new Map<string, Company>();
  private readonly byDomain: Map<string, Company>;

  constructor(private readonly market: Market) {
    this.byDomain = new Map(market.companies.map((c) => [c.domain, c]));
  }

  get size(): number {
    return this.byDomain.size;
  }

  list(): Company[] {
    return [...this.market.companies, ...this.added.values()];
  }

  get(domain: string): Company | undefined {
    return this.byDomain.get(normalizeDomain(domain));
  }

  /** Adds a company, or renames the one of that domain. */
  add(input: { domain: string; name: string }): Company {
    const domain = normalizeDomain(input.domain);
    if (!isDomain(domain))
      throw new WorldError('invalid_request', 'domain must be a host name such as example.com', 'domain');
    const existing = this.byDomain.get(domain);
    if (existing) {
      existing.name = input.name;
      return { ...existing };
    }
    const company: Company = {
      domain,
      name: input.name,
      countryCode: 'US',
      industry: 'tech',
      legalSuffix: '',
      added: true,
    };
    this.added.set(domain, company);
    this.byDomain.set(domain, company);
    return { ...company };
  }

  /** The normalized domain, its company made (named after the domain) when there is none yet. */
  ensure(domainInput: string): string {
    const domain = normalizeDomain(domainInput);
    if (!isDomain(domain))
      throw new WorldError(
        'invalid_request',
        'company_domain must be a host name such as example.com',
        'company_domain',
      );
    if (!this.byDomain.has(domain)) {
      const label = domain.split('.')[0]!;
      this.add({ domain, name: label.charAt(0).toUpperCase() + label.slice(1) });
    }
    return domain;
  }
}
