import { PROVIDER_SLUGS, type Plan, type ProviderSlug } from '@jobs/contracts';

/**
 * Growth gets two partners; the spec leaves which ones to us. provider_a and provider_b are
 * the two broadest general job boards of the simulated market (docs/decisions/0001-growth-plan-partners.md).
 */
export const GROWTH_PARTNERS = ['provider_a', 'provider_b'] as const satisfies readonly ProviderSlug[];

const PLAN_ORDER: readonly Plan[] = ['free', 'starter', 'growth', 'pro', 'scale', 'enterprise'];

/** The providers an account on `plan` may route to, own index first. */
export function providersForPlan(plan: Plan): ProviderSlug[] {
  switch (plan) {
    case 'free':
    case 'starter':
      return ['own_index'];
    case 'growth':
      return ['own_index', ...GROWTH_PARTNERS];
    case 'pro':
    case 'scale':
    case 'enterprise':
      return [...PROVIDER_SLUGS];
  }
}

/** True when `plan` is `minimum` or above. */
export function planAtLeast(plan: Plan, minimum: Plan): boolean {
  return PLAN_ORDER.indexOf(plan) >= PLAN_ORDER.indexOf(minimum);
}

/** The cheapest plan that routes to every one of `providers`. */
export function cheapestPlanFor(providers: readonly ProviderSlug[]): Plan {
  return PLAN_ORDER.find((plan) => providers.every((p) => providersForPlan(plan).includes(p))) ?? 'pro';
}

/** Default credit allowance and rate limit per plan (the spec leaves both to us). */
export const PLAN_DEFAULTS: Record<Plan, { rateLimit: { limit: number; windowSeconds: number } }> = {
  free: { rateLimit: { limit: 60, windowSeconds: 60 } },
  starter: { rateLimit: { limit: 120, windowSeconds: 60 } },
  growth: { rateLimit: { limit: 300, windowSeconds: 60 } },
  pro: { rateLimit: { limit: 600, windowSeconds: 60 } },
  scale: { rateLimit: { limit: 1200, windowSeconds: 60 } },
  enterprise: { rateLimit: { limit: 3000, windowSeconds: 60 } },
};
