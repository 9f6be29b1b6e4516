import { z } from 'zod';
import { FiltersSchema } from '@jobs/contracts';
import {
  ARGUMENT_PROBLEMS_SHOWN,
  argumentProblems,
  describeArgumentProblems,
  type ArgumentProblem,
} from './tool-arguments.js';

const input = z.strictObject({
  filters: FiltersSchema.optional(),
  limit: z.number().int().min(1).max(100).optional(),
  max_credits: z.number().int().min(0),
});

const problemsOf = (args: unknown): ArgumentProblem[] => {
  const parsed = input.safeParse(args);
  if (parsed.success) throw new Error('expected a refusal');
  return argumentProblems(parsed.error).shown;
};
const all = (shown: ArgumentProblem[]) => ({ shown, total: shown.length });

describe('argumentProblems', () => {
  it('lists every problem of a call, not the first', () => {
    expect(problemsOf({ limit: 0 })).toEqual([
      { code: 'invalid_request', param: 'limit', message: expect.stringMatching(/^limit: .*1/) },
      { code: 'invalid_request', param: 'max_credits', message: expect.stringMatching(/^max_credits: /) },
    ]);
  });

  it('names each unknown filter apart, with the filter it probably meant, and each unknown argument', () => {
    expect(problemsOf({ max_credits: 1, filters: { titel_or: ['x'], zzz: 1 }, limt: 5, cursr: 'x' })).toEqual([
      {
        code: 'unknown_filter',
        param: 'filters.titel_or',
        message: 'Unknown filter "titel_or". Did you mean "title_or"?',
      },
      { code: 'unknown_filter', param: 'filters.zzz', message: 'Unknown filter "zzz".' },
      { code: 'invalid_request', param: 'limt', message: 'Unknown argument "limt".' },
      { code: 'invalid_request', param: 'cursr', message: 'Unknown argument "cursr".' },
    ]);
  });

  it(`describes the first ${ARGUMENT_PROBLEMS_SHOWN} of thousands of unknown names, counts them all, and cuts long names`, () => {
    const filters = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`f${i}`, 1]));
    const parsed = input.safeParse({ max_credits: 1, filters: { ...filters, ['q'.repeat(100_000)]: 1 }, limt: 1 });
    if (parsed.success) throw new Error('expected a refusal');
    const problems = argumentProblems(parsed.error);
    expect(problems.total).toBe(5002);
    expect(problems.shown).toHaveLength(ARGUMENT_PROBLEMS_SHOWN);
    const text = describeArgumentProblems(problems);
    expect(text.split('\n')[0]).toBe(
      `unknown_filter: 5002 problems with the arguments, the first ${ARGUMENT_PROBLEMS_SHOWN} below. ` +
        'The call was not sent: nothing was charged.',
    );
    expect(text.length).toBeLessThan(4000);
    const long = input.safeParse({ max_credits: 1, filters: { ['q'.repeat(100_000)]: 1 } });
    if (long.success) throw new Error('expected a refusal');
    const [problem] = argumentProblems(long.error).shown;
    expect(problem).toEqual({
      code: 'unknown_filter',
      param: `filters.${'q'.repeat(64)}…`,
      message: `Unknown filter "${'q'.repeat(64)}…".`,
    });
  });

  it('writes paths inside arrays as the API does', () => {
    expect(problemsOf({ max_credits: 1, filters: { country_code_or: ['GB', 'uk'] } })).toEqual([
      expect.objectContaining({ param: 'filters.country_code_or[1]' }),
    ]);
  });
});

describe('describeArgumentProblems', () => {
  const limit: ArgumentProblem = { code: 'invalid_request', param: 'limit', message: 'limit: Too big' };
  const filter: ArgumentProblem = { code: 'unknown_filter', param: 'filters.x', message: 'Unknown filter "x".' };

  it('keeps the one-line form of the API error for a single problem', () => {
    expect(describeArgumentProblems(all([limit]))).toBe(
      'invalid_request: limit: Too big. The call was not sent: nothing was charged. [param: limit]',
    );
  });

  it('heads several problems with their number, then a line each', () => {
    expect(describeArgumentProblems(all([filter, limit]))).toBe(
      [
        'invalid_request: 2 problems with the arguments. The call was not sent: nothing was charged.',
        '- unknown_filter: Unknown filter "x". [param: filters.x]',
        '- invalid_request: limit: Too big. [param: limit]',
      ].join('\n'),
    );
    expect(describeArgumentProblems(all([filter, { ...filter, param: 'filters.y' }])).split('\n')[0]).toMatch(
      /^unknown_filter: 2 problems/,
    );
  });

  it('leaves out the param of a problem with the call as a whole', () => {
    expect(
      describeArgumentProblems(all([{ code: 'invalid_request', param: undefined, message: 'Expected object' }])),
    ).toBe('invalid_request: Expected object. The call was not sent: nothing was charged.');
  });
});
