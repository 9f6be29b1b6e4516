import { ApiError } from '../http/api-error.js';
import { positionOfCursor } from './dashboard-deliveries.usecase.js';

describe('a deliveries cursor', () => {
  it('names a feed position, up to the largest a bigint holds', () => {
    expect(positionOfCursor('42')).toBe(42n);
    expect(positionOfCursor('9223372036854775807')).toBe(9223372036854775807n);
  });

  it.each(['9223372036854775808', '9999999999999999999', '', '-1', '1e3', 'abc', '12345678901234567890'])(
    'refuses %p as invalid_request on cursor, never as a database error',
    (cursor) => {
      const refusal = (() => {
        try {
          positionOfCursor(cursor);
        } catch (error) {
          return error;
        }
        return undefined;
      })();
      expect(refusal).toBeInstanceOf(ApiError);
      expect(refusal).toMatchObject({ code: 'invalid_request', extras: { param: 'cursor' } });
    },
  );
});
