import type { Filters } from '@jobs/contracts';

/** Realistic filter sets, cycled through in order (each level sends the same sequence). */
export const FILTER_SETS: Filters[] = [
  { title_or: ['engineer'], country_code_or: ['GB'] },
  { title_or: ['manager'], remote: true },
  { title_or: ['developer', 'engineer'], posted_within_days: 14 },
  { title_or: ['analyst'], country_code_or: ['US', 'CA'] },
  { title_or: ['designer'], employment_type_or: ['full_time'] },
  { title_or: ['data'], seniority_or: ['senior', 'lead'] },
  { title_or: ['sales'], country_code_or: ['DE', 'FR', 'NL'] },
  { title_or: ['support', 'specialist'], remote: false },
  { title_or: ['product'], salary_min_gte: 50_000 },
  { title_or: ['marketing'], title_not: ['intern'] },
];
