import { ApiError } from '../http/api-error.js';
import { expectSimAnswer, toPublicParam } from './sim-answer.js';

function refusal(status: number, body: unknown): ApiError {
  try {
    expectSimAnswer({ status, body }, 200);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('expectSimAnswer', () => {
  it('passes the body of the expected status through', () => {
    expect(expectSimAnswer({ status: 201, body: { world_job_id: 'w1' } }, 201)).toEqual({ world_job_id: 'w1' });
  });

  it('turns a 404 into not_found without a param', () => {
    const error = refusal(404, { error: { code: 'not_found', param: 'world_job_id', message: 'no world job x' } });
    expect(error.code).toBe('not_found');
    expect(error.message).toBe('No world job x');
    expect(error.extras.param).toBeUndefined();
  });

  it('turns a 400 into invalid_request naming the field in the public format', () => {
    const error = refusal(400, {
      error: { code: 'invalid_request', param: 'salary.min', message: 'min must not exceed max' },
    });
    expect(error.code).toBe('invalid_request');
    expect(error.extras.param).toBe('salary.min');
    expect(error.message).toContain('min must not exceed max');
  });

  it('names the body when the simulator names no field', () => {
    expect(refusal(409, { error: { code: 'conflict', param: null, message: 'no room' } }).extras.param).toBe('body');
    expect(refusal(400, 'not json').extras.param).toBe('body');
  });

  it('treats a 5xx as an internal failure, not a client error', () => {
    expect(() => expectSimAnswer({ status: 503, body: null }, 200)).toThrow('provider-sim answered 503');
  });
});

describe('toPublicParam', () => {
  it.each([
    ['title', 'title'],
    ['salary.min', 'salary.min'],
    ['providers.2', 'providers[2]'],
    ['a.0.b', 'a[0].b'],
  ])('%s -> %s', (sim, expected) => expect(toPublicParam(sim)).toBe(expected));
});
