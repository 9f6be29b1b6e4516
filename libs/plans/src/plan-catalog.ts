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

/**
 * What a `plan_required` refusal of a search naming `providers` off its plan says, wherever it is
 * refused (the gateway for test keys, the orchestrator for live searches): the providers, and the
 * cheapest plan that routes them all.
 */
export function planRequiredRefusal(providers: readonly ProviderSlug[]): { message: string; required_plan: Plan } {
  return { message: `Your plan does not include ${providers.join(', ')}.`, required_plan: cheapestPlanFor(providers) };
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

/**
 * What one account may keep at once, per key mode (a test key's watches count apart from the live
 * key's). Watches: every active watch is matched against each change the refresh passes see, so
 * an account's count is bounded; plans below `pro` have none. Async searches: the unfinished ones
 * (queued or running; one `on_hold` waits for credits and holds nothing), so one account cannot
 * fill the async pool's queue with thousands of 10,000-job searches. Published in the docs'
 * "Plans and what they allow" (docs/decisions/0041-account-caps.md).
 */
export const PLAN_CAPS: Record<Plan, { watches: number; unfinishedAsyncSearches: number }> = {
  free: { watches: 0, unfinishedAsyncSearches: 2 },
  starter: { watches: 0, unfinishedAsyncSearches: 5 },
  growth: { watches: 0, unfinishedAsyncSearches: 10 },
  pro: { watches: 1_000, unfinishedAsyncSearches: 20 },
  scale: { watches: 5_000, unfinishedAsyncSearches: 50 },
  enterprise: { watches: 20_000, unfinishedAsyncSearches: 100 },
};

/** The next plan up whose cap is larger than `plan`'s, or undefined at the top. */
export function planWithMore(plan: Plan, cap: keyof (typeof PLAN_CAPS)[Plan]): Plan | undefined {
  return PLAN_ORDER.slice(PLAN_ORDER.indexOf(plan) + 1).find((p) => PLAN_CAPS[p][cap] > PLAN_CAPS[plan][cap]);
}
