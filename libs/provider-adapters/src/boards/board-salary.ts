import type { Salary } from '@jobs/contracts';

/**
 * Pay stated per week or per day, as a yearly figure: the Job's period is a year, a month or an
 * hour. 52 weeks; 260 working days. The conversion is marked lossy by the caller.
 */
const YEARLY_FACTOR = { week: 52, day: 260 } as const;

export type StatedPeriod = Salary['period'] | keyof typeof YEARLY_FACTOR;

/**
 * A stated pay range as the Job's salary (`origin: declared`), its period normalised to year,
 * month or hour; null without a currency, a period or any amount.
 */
export function declaredSalary(input: {
  min: number | null | undefined;
  max: number | null | undefined;
  currency: string | null | undefined;
  period: StatedPeriod | null;
}): { salary: Salary; converted: boolean } | null {
  const currency = input.currency?.trim().toUpperCase();
  if (!currency || !/^[A-Z]{3}$/.test(currency) || input.period === null) return null;
  const min = typeof input.min === 'number' && input.min > 0 ? input.min : null;
  const max = typeof input.max === 'number' && input.max > 0 ? input.max : null;
  if (min === null && max === null) return null;
  const [low, high] = min !== null && max !== null && min > max ? [max, min] : [min, max];
  if (input.period === 'week' || input.period === 'day') {
    const factor = YEARLY_FACTOR[input.period];
    const scale = (n: number | null) => (n === null ? null : Math.round(n * factor));
    return {
      salary: { min: scale(low), max: scale(high), currency, period: 'year', origin: 'declared' },
      converted: true,
    };
  }
  return { salary: { min: low, max: high, currency, period: input.period, origin: 'declared' }, converted: false };
}
