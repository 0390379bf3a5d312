/**
 * Which failures the error handler answers 503 UNAVAILABLE (src/server/lib/error-handler.ts): the database
 * unreachable or restarting, or the disk under it full. The real ones are shown end to end by
 * test/fault-database.test.ts and test/fault-disk.test.ts; here the classification itself, error by error.
 */
import { describe, expect, it } from 'vitest';
import { unavailableCause } from '../src/server/lib/error-handler';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });
/** As Drizzle reports a failed query: its own error with the driver's as `cause`. */
const drizzle = (cause: unknown) => Object.assign(new Error('Failed query: select 1'), { cause });

describe('unavailableCause', () => {
  it.each([
    ['connection refused', withCode('ECONNREFUSED'), 'ECONNREFUSED'],
    [
      'connection refused on every address (AggregateError)',
      Object.assign(new AggregateError([withCode('ECONNREFUSED')], ''), {}),
      'ECONNREFUSED',
    ],
    [
      'server shutting down, wrapped by Drizzle',
      drizzle(withCode('57P01', 'terminating connection due to administrator command')),
      '57P01',
    ],
    ['server starting up', withCode('57P03', 'the database system is starting up'), '57P03'],
    ['connection exception class 08', withCode('08006'), '08006'],
    ['disk full in PostgreSQL/PGlite', drizzle(withCode('53100', 'could not extend file')), '53100'],
    ['too many connections', withCode('53300'), '53300'],
    ['disk full in a file write', withCode('ENOSPC'), 'ENOSPC'],
    ['pg: connection gone', drizzle(new Error('Connection terminated unexpectedly')), 'Connection terminated unexpectedly'],
    ['pg: pool wait timed out', new Error('timeout exceeded when trying to connect'), 'timeout exceeded when trying to connect'],
  ])('%s', (_name, err, cause) => {
    expect(unavailableCause(err)).toBe(cause);
  });

  it.each([
    ["a unique violation (the client's conflict)", drizzle(withCode('23505'))],
    ["a value out of range (the client's input)", drizzle(withCode('22003'))],
    ['a syntax error (our bug: stays a 500)', drizzle(withCode('42601'))],
    ['a plain error', new Error('boom')],
    ['not an error at all', 'boom'],
  ])('not %s', (_name, err) => {
    expect(unavailableCause(err)).toBeUndefined();
  });

  it('stops on a cause that points back to itself', () => {
    const e: { message: string; cause?: unknown } = { message: 'loop' };
    e.cause = e;
    expect(unavailableCause(e)).toBeUndefined();
  });
});
