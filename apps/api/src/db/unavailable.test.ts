import { describe, expect, it } from 'vitest';
import { afterConflicts, isTransactionConflict } from './unavailable.js';

/** An error as drizzle throws it: the driver's error (with PostgreSQL's code) as its cause. */
const wrapped = (code: string) => Object.assign(new Error('Failed query: …'), { cause: { code } });

describe('a transaction PostgreSQL ended to break a conflict', () => {
  it('is told by its code, wrapped or not', () => {
    expect(isTransactionConflict(wrapped('40P01'))).toBe(true);
    expect(isTransactionConflict(wrapped('40001'))).toBe(true);
    expect(isTransactionConflict({ code: '40P01' })).toBe(true);
    expect(isTransactionConflict(wrapped('23505'))).toBe(false);
    expect(isTransactionConflict(new Error('deadlock detected'))).toBe(false);
    expect(isTransactionConflict(undefined)).toBe(false);
  });

  it('runs again, up to three times in all; any other failure is thrown at once', async () => {
    let runs = 0;
    await expect(
      afterConflicts(async () => {
        runs += 1;
        if (runs < 3) throw wrapped('40P01');
        return 'done';
      }),
    ).resolves.toBe('done');
    expect(runs).toBe(3);

    runs = 0;
    await expect(
      afterConflicts(async () => {
        runs += 1;
        throw wrapped('40P01');
      }),
    ).rejects.toMatchObject({ cause: { code: '40P01' } });
    expect(runs).toBe(3);

    runs = 0;
    await expect(
      afterConflicts(async () => {
        runs += 1;
        throw wrapped('23505');
      }),
    ).rejects.toMatchObject({ cause: { code: '23505' } });
    expect(runs).toBe(1);
  });
});
