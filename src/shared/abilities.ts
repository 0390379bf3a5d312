/**
 * Who may do what, defined once: the server checks these on every route and the web app uses the same
 * rules to decide what to show. Hiding a button is never the only protection.
 */
import { AbilityBuilder, createMongoAbility, type MongoAbility } from '@casl/ability';

export const ROLES = ['admin', 'staff'] as const;
export type Role = (typeof ROLES)[number];

export type Action = 'manage' | 'read' | 'create' | 'update' | 'delete';
export type Subject =
  | 'all'
  | 'Dashboard'
  | 'Product'
  | 'SerialRange'
  | 'MachineData'
  | 'Machine'
  | 'SearchRequest'
  | 'Staff'
  | 'Settings'
  | 'AuditLog'
  | 'AclDemo'
  | 'Customer'
  | 'PurchaseOrder'
  | 'Delivery'
  | 'Material'
  | 'Alert'
  | 'Webhook';

export type AppAbility = MongoAbility<[Action, Subject]>;

/** The rules of a role, as plain objects (they travel to the web app in `/auth/me`). */
export function defineAbilitiesFor(role: Role | null): AppAbility {
  const { can, build } = new AbilityBuilder<AppAbility>(createMongoAbility);
  if (role === 'admin') {
    can('manage', 'all');
  } else if (role === 'staff') {
    can('read', 'Dashboard');
    can('manage', 'Product');
    can('manage', 'SerialRange');
    // Materials, heats and their mill certificates: kept by the quality staff who receive the material.
    can('manage', 'Material');
    can(['read', 'create'], 'MachineData');
    can(['read', 'update'], 'SearchRequest');
    can('read', 'Settings');
    // Deleting a customer or an order is refused while anything references it (409), not by role.
    can(['read', 'create', 'update', 'delete'], ['Customer', 'PurchaseOrder']);
    can(['read', 'create', 'update'], 'Delivery');
    // Quality alerts: every staff member reads and acknowledges them; webhooks are the administrators'.
    can(['read', 'update'], 'Alert');
  }
  return build();
}

export function rulesFor(role: Role | null) {
  return defineAbilitiesFor(role).rules;
}

export function abilityFromRules(rules: AppAbility['rules']): AppAbility {
  return createMongoAbility<[Action, Subject]>(rules);
}
