/**
 * Customers, purchase orders and deliveries: query keys (the lists are useList's), read, add, update,
 * delete, options for the pickers, and a delivery's own actions (units, cancel, the release gate, the
 * release, the buyer's links, a unit's tag).
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  Customer,
  CustomerInput,
  Delivery,
  DeliveryDetail,
  DeliveryGate,
  DeliveryInput,
  DeliverySerialsInput,
  PurchaseOrder,
  PurchaseOrderInput,
} from '../../../shared/contract/orders';
import type { DeliveryWitnessValues } from '../../../shared/contract/witness';
import type { ListResult } from '../../components/data-table';
import { recordApi } from '../../components/list-kit';
import { api } from '../../lib/api';

/** How often the delivery page reads the delivery again while its release runs. */
export const RELEASE_POLL_MS = 1500;

const keysOf = <N extends string>(name: N) => {
  const all = [name] as const;
  return {
    all,
    lists: () => [...all, 'list'] as const,
    options: (q: string) => [...all, 'options', q] as const,
    detail: (id: string) => [...all, 'detail', id] as const,
    history: (id: string) => [...all, 'history', id] as const,
    gate: (id: string) => [...all, 'gate', id] as const,
  };
};

export const customerKeys = keysOf('customers');
export const purchaseOrderKeys = keysOf('purchase-orders');
export const deliveryKeys = keysOf('deliveries');

// A customer's name shows on its orders and deliveries, an order's number and shipped counts on deliveries.
const customers = recordApi<Customer, CustomerInput>({
  path: '/customers',
  keys: customerKeys,
  also: [purchaseOrderKeys.all, deliveryKeys.all],
});
const purchaseOrders = recordApi<PurchaseOrder, PurchaseOrderInput>({
  path: '/purchase-orders',
  keys: purchaseOrderKeys,
  also: [customerKeys.all, deliveryKeys.all],
});
const deliveries = recordApi<DeliveryDetail, DeliveryInput>({
  path: '/deliveries',
  keys: deliveryKeys,
  also: [purchaseOrderKeys.all],
});

export const { useOne: useCustomer, useAdd: useAddCustomer, useUpdate: useUpdateCustomer, useRemove: useDeleteCustomer } = customers;
export const {
  useOne: usePurchaseOrder,
  useAdd: useAddPurchaseOrder,
  useUpdate: useUpdatePurchaseOrder,
  useRemove: useDeletePurchaseOrder,
} = purchaseOrders;
export const { useOne: useDelivery, useAdd: useAddDelivery, useUpdate: useUpdateDelivery } = deliveries;

/** Records whose name or number matches `q`, for a searchable select. */
function useOptions<T>(path: string, key: readonly unknown[], q: string, sort: string, enabled: boolean) {
  return useQuery({
    queryKey: key,
    queryFn: ({ signal }) =>
      api.get<ListResult<T>>(path, { query: { q: q.trim() || undefined, pageSize: 20, sort, order: 'asc' }, signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export const useCustomerOptions = (q: string, enabled = true) =>
  useOptions<Customer>('/customers', customerKeys.options(q), q, 'name', enabled);
export const usePurchaseOrderOptions = (q: string, enabled = true) =>
  useOptions<PurchaseOrder>('/purchase-orders', purchaseOrderKeys.options(q), q, 'number', enabled);

/** Every unit's release-gate status, read while the delivery is open. */
export function useDeliveryGate(id: string, enabled: boolean) {
  return useQuery({
    queryKey: deliveryKeys.gate(id),
    queryFn: ({ signal }) => api.get<DeliveryGate>(`/deliveries/${encodeURIComponent(id)}/gate`, { signal }),
    enabled,
  });
}

function useRefreshDelivery() {
  const qc = useQueryClient();
  return () => Promise.all([deliveryKeys.all, purchaseOrderKeys.all].map((queryKey) => qc.invalidateQueries({ queryKey })));
}

const one = (id: string) => `/deliveries/${encodeURIComponent(id)}`;

export function useAddDeliveryUnits(id: string) {
  return useMutation({
    mutationFn: (input: DeliverySerialsInput) => api.post<DeliveryDetail>(`${one(id)}/serials`, input),
    onSuccess: useRefreshDelivery(),
  });
}

export function useRemoveDeliveryUnit(id: string) {
  return useMutation({
    mutationFn: (serial: string) => api.delete(`${one(id)}/serials/${encodeURIComponent(serial)}`),
    onSuccess: useRefreshDelivery(),
  });
}

/** The delivery page's delivery: read again every RELEASE_POLL_MS while its release runs (its progress). */
export function useDeliveryDetail(id: string) {
  return useQuery({
    queryKey: deliveryKeys.detail(id),
    queryFn: ({ signal }) => api.get<DeliveryDetail>(one(id), { signal }),
    enabled: !!id,
    refetchInterval: (q) => (q.state.data?.status === 'releasing' ? RELEASE_POLL_MS : false),
  });
}

/** Starts the release (202, status releasing); a unit the gate holds refuses it with 409 and the gate. */
export function useReleaseDelivery(id: string) {
  return useMutation({ mutationFn: () => api.post<Delivery>(`${one(id)}/release`), onSuccess: useRefreshDelivery() });
}

/** Sends a new link to the customer's certificate contacts. */
export function useSendDeliveryLink(id: string) {
  return useMutation({ mutationFn: () => api.post<DeliveryDetail>(`${one(id)}/links`), onSuccess: useRefreshDelivery() });
}

/** Ends every link of the delivery. */
export function useRevokeDeliveryLinks(id: string) {
  return useMutation({ mutationFn: () => api.post<DeliveryDetail>(`${one(id)}/links/revoke`), onSuccess: useRefreshDelivery() });
}

/** Corrects a unit's tag; on a released delivery the unit gets a new certificate version. */
export function useUpdateUnitTag(id: string) {
  return useMutation({
    mutationFn: ({ serial, tag }: { serial: string; tag: string }) =>
      api.put<DeliveryDetail>(`${one(id)}/serials/${encodeURIComponent(serial)}`, { tag }),
    onSuccess: useRefreshDelivery(),
  });
}

export function useRecordWitness(id: string) {
  return useMutation({
    mutationFn: (witness: DeliveryWitnessValues) => api.put<Delivery>(`${one(id)}/witness`, witness),
    onSuccess: useRefreshDelivery(),
  });
}

export function useCancelDelivery(id: string) {
  return useMutation({
    mutationFn: (reason: string) => api.post<Delivery>(`${one(id)}/cancel`, { reason }),
    onSuccess: useRefreshDelivery(),
  });
}

export { useRefreshDelivery };
