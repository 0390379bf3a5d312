import { describe, expect, it } from 'vitest';
import { statusCounts } from './searches';

describe('a request’s outcomes counted', () => {
  it('counts each outcome, what went out first, when the serials ended differently', () => {
    const serials = (['held', 'sent', 'held', 'sent', 'not-found'] as const).map((status) => ({ status }));
    expect(statusCounts(serials)).toEqual([
      { status: 'sent', count: 2 },
      { status: 'held', count: 2 },
      { status: 'not-found', count: 1 },
    ]);
  });

  it('says nothing more than the status when every serial ended the same way', () => {
    expect(statusCounts([{ status: 'sent' }, { status: 'sent' }])).toEqual([]);
    expect(statusCounts([])).toEqual([]);
  });
});
