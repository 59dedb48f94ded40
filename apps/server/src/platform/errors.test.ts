import { DrizzleQueryError } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './errors.ts';

const postgresError = (code: string, message = 'server says no') => Object.assign(new Error(message), { code, severity: 'FATAL' });
const socketError = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code });

describe('which errors mean the database is unreachable (503) rather than a bug (500)', () => {
  it.each([
    ['server shutting down (57P01)', postgresError('57P01', 'terminating connection due to administrator command')],
    ['crash shutdown (57P02)', postgresError('57P02')],
    ['starting up (57P03)', postgresError('57P03', 'the database system is starting up')],
    ['connection failure (08006)', postgresError('08006')],
    ['refused, wrapped by drizzle', new DrizzleQueryError('select 1', [], socketError('ECONNREFUSED'))],
    ['refused on every address', new AggregateError([socketError('ECONNREFUSED'), socketError('ECONNREFUSED')])],
    ['reset', socketError('ECONNRESET')],
    ['timed out', socketError('ETIMEDOUT')],
    ['dropped mid-query', new Error('Connection terminated unexpectedly')],
    ['pool connect timeout', new Error('timeout exceeded when trying to connect')],
    ['connection timeout', new Error('Connection terminated due to connection timeout')],
  ])('%s → unavailable', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['unique violation', new DrizzleQueryError('insert …', ['x'], Object.assign(new Error('duplicate key'), { code: '23505', severity: 'ERROR' }))],
    ['a plain bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['not an error', 'ECONNREFUSED'],
  ])('%s → not unavailable', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
