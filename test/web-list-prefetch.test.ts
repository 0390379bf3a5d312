/**
 * A list screen's route asks for its rows as the screen's code arrives (prefetchList, src/web/app/router.tsx):
 * the request must be the one the screen would send for that address, under the key the screen reads, or the
 * screen asks again and the early request was wasted. Checked here without a browser: the address's page,
 * size, sort, search and filters go into the request, and the answer lands under useListQuery's key.
 */
import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readListParams } from '../src/web/components/data-table/list-params';
import { prefetchList, type UseListOptions } from '../src/web/components/list-kit/use-list';
import { chunkedListQuery, pagedListQuery } from '../src/web/components/list-kit/use-list-query';

const LIST: UseListOptions<'name' | 'createdAt', 'fluid' | 'product'> = {
  key: ['things', 'list'],
  path: '/things',
  sorts: ['name', 'createdAt'],
  defaultSort: 'name',
  filters: [
    { url: 'fluid', parse: (v) => (v === 'water' || v === 'gas' ? v : undefined) },
    { url: 'product', api: 'productId' },
  ],
};

function answering(items: unknown[], total: number) {
  const asked: URL[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      asked.push(new URL(input, 'http://app.example'));
      return new Response(JSON.stringify({ status: 'success', data: { items, total } }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
  return asked;
}

async function settled(client: QueryClient) {
  await vi.waitFor(() => expect(client.isFetching()).toBe(0));
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('prefetchList', () => {
  it("asks for the address's page with its sort, search and filters, under the key the screen reads", async () => {
    const asked = answering([{ id: 'a' }], 31);
    const client = new QueryClient();
    const url = new URL('http://app.example/things?page=3&size=25&sort=createdAt&order=desc&q=%20ball%20&fluid=water&product=p1&extra=x');
    prefetchList(client, LIST, url);
    await settled(client);

    expect(asked).toHaveLength(1);
    expect(asked[0]!.pathname).toBe('/api/v1/things');
    expect(Object.fromEntries(asked[0]!.searchParams)).toEqual({
      page: '3',
      pageSize: '25',
      sort: 'createdAt',
      order: 'desc',
      q: 'ball',
      fluid: 'water',
      productId: 'p1',
    });
    const params = readListParams(url.searchParams, LIST);
    const key = pagedListQuery(LIST.key, LIST.path, params, { fluid: 'water', productId: 'p1' }).queryKey;
    expect(client.getQueryData(key)).toEqual({ items: [{ id: 'a' }], total: 31 });
  });

  it('leaves out a filter value the screen would not use, and defaults what the address does not say', async () => {
    const asked = answering([], 0);
    const client = new QueryClient();
    prefetchList(client, LIST, new URL('http://app.example/things?fluid=lava&sort=colour'));
    await settled(client);

    expect(Object.fromEntries(asked[0]!.searchParams)).toEqual({ page: '1', pageSize: '10', sort: 'name', order: 'asc' });
    const params = readListParams(new URLSearchParams(), LIST);
    expect(client.getQueryData(pagedListQuery(LIST.key, LIST.path, params, {}).queryKey)).toEqual({ items: [], total: 0 });
  });

  it('asks for the first chunk of an "All" list, under the key of its chunks', async () => {
    const asked = answering([{ id: 'a' }, { id: 'b' }], 250);
    const client = new QueryClient();
    const url = new URL('http://app.example/things?size=all&page=4');
    prefetchList(client, LIST, url);
    await settled(client);

    expect(asked).toHaveLength(1);
    expect(asked[0]!.searchParams.get('page')).toBe('1');
    expect(asked[0]!.searchParams.get('pageSize')).toBe('100');
    const params = readListParams(url.searchParams, LIST);
    const data = client.getQueryData(chunkedListQuery(LIST.key, LIST.path, params, {}).queryKey);
    expect(data?.pages).toEqual([{ items: [{ id: 'a' }, { id: 'b' }], total: 250 }]);
  });

  it('asks once when the same address is prefetched twice at once (a route change and its revalidation)', async () => {
    const asked = answering([], 0);
    const client = new QueryClient();
    const url = new URL('http://app.example/things?page=2');
    prefetchList(client, LIST, url);
    prefetchList(client, LIST, url);
    await settled(client);
    expect(asked).toHaveLength(1);
  });
});
