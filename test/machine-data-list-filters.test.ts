/**
 * The Machine Data list's filters as its planning counts them (machine-data.list-planning.ts): each field of the
 * query names one filter, and a tested-at range is one filter however many of its two ends are set.
 */
import { describe, expect, it } from 'vitest';
import { testRecordListQuery } from '../src/shared/contract/machine-data';
import { filtersSet } from '../src/server/modules/machine-data/machine-data.list-planning';

const set = (query: Record<string, string>) => filtersSet(testRecordListQuery.parse(query)).sort();

describe('the list filters set', () => {
  it('counts a tested-at range once, from either end or both', () => {
    expect(set({ testedFrom: '2024-03-01', testedTo: '2024-03-31' })).toEqual(['testedAt']);
    expect(set({ testedTo: '2024-03-31' })).toEqual(['testedAt']);
    expect(set({ testedFrom: '2024-03-01', result: 'fail' })).toEqual(['result', 'testedAt']);
  });

  it('names each other filter by what it filters, and leaves out paging and sorting', () => {
    expect(set({ testType: 'seat', result: 'fail', page: '2', sort: 'serial', order: 'desc' })).toEqual(['result', 'testType']);
    expect(set({ productId: '7c4f8a52-3e6b-4b55-9f55-6d2f0f8a1b10', machineId: '2b3c4d5e-6f70-4812-9a3b-4c5d6e7f8091' })).toEqual([
      'bench',
      'product',
    ]);
    expect(set({})).toEqual([]);
  });
});
