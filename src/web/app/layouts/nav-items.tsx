/** The navigation of the default layout; an item shows only when the user's abilities allow its subject. */
import NotificationsActiveOutlined from '@mui/icons-material/NotificationsActiveOutlined';
import AssignmentOutlined from '@mui/icons-material/AssignmentOutlined';
import BusinessOutlined from '@mui/icons-material/BusinessOutlined';
import LocalShippingOutlined from '@mui/icons-material/LocalShippingOutlined';
import AdminPanelSettingsOutlined from '@mui/icons-material/AdminPanelSettingsOutlined';
import DashboardOutlined from '@mui/icons-material/DashboardOutlined';
import Inventory2Outlined from '@mui/icons-material/Inventory2Outlined';
import HistoryOutlined from '@mui/icons-material/HistoryOutlined';
import ManageSearchOutlined from '@mui/icons-material/ManageSearchOutlined';
import PeopleOutlined from '@mui/icons-material/PeopleOutlined';
import PrecisionManufacturingOutlined from '@mui/icons-material/PrecisionManufacturingOutlined';
import LayersOutlined from '@mui/icons-material/LayersOutlined';
import LocalFireDepartmentOutlined from '@mui/icons-material/LocalFireDepartmentOutlined';
import QrCode2Outlined from '@mui/icons-material/QrCode2Outlined';
import RouterOutlined from '@mui/icons-material/RouterOutlined';
import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
import type { ReactNode } from 'react';
import { useMatch } from 'react-router';
import type { Action, Subject } from '../../../shared/abilities';
import { useAppAbility } from '../../lib/ability';
import { useRouteMeta } from '../root-shell';

export interface NavItem {
  to: string;
  /** i18n key */
  label: string;
  icon: ReactNode;
  action: Action;
  subject: Subject;
}

export const NAV_ITEMS: NavItem[] = [
  { to: '/dashboard', label: 'nav.dashboard', icon: <DashboardOutlined />, action: 'read', subject: 'Dashboard' },
  { to: '/products', label: 'nav.products', icon: <Inventory2Outlined />, action: 'read', subject: 'Product' },
  { to: '/serial-numbers', label: 'nav.serialNumbers', icon: <QrCode2Outlined />, action: 'read', subject: 'SerialRange' },
  { to: '/materials', label: 'materials.catalogue.nav', icon: <LayersOutlined />, action: 'read', subject: 'Material' },
  { to: '/heats', label: 'materials.heats.nav', icon: <LocalFireDepartmentOutlined />, action: 'read', subject: 'Material' },
  { to: '/customers', label: 'nav.customers', icon: <BusinessOutlined />, action: 'read', subject: 'Customer' },
  { to: '/purchase-orders', label: 'nav.purchaseOrders', icon: <AssignmentOutlined />, action: 'read', subject: 'PurchaseOrder' },
  { to: '/deliveries', label: 'nav.deliveries', icon: <LocalShippingOutlined />, action: 'read', subject: 'Delivery' },
  { to: '/machine-data', label: 'nav.machineData', icon: <PrecisionManufacturingOutlined />, action: 'read', subject: 'MachineData' },
  { to: '/alerts', label: 'alerts.title', icon: <NotificationsActiveOutlined />, action: 'read', subject: 'Alert' },
  { to: '/machines', label: 'machineScreens.benches.title', icon: <RouterOutlined />, action: 'read', subject: 'Machine' },
  { to: '/searches', label: 'nav.searches', icon: <ManageSearchOutlined />, action: 'read', subject: 'SearchRequest' },
  { to: '/staffs', label: 'nav.staffs', icon: <PeopleOutlined />, action: 'read', subject: 'Staff' },
  { to: '/audit-log', label: 'audit.nav', icon: <HistoryOutlined />, action: 'read', subject: 'AuditLog' },
  { to: '/settings', label: 'settingsScreen.title', icon: <SettingsOutlined />, action: 'read', subject: 'Settings' },
  { to: '/access-control', label: 'nav.accessControl', icon: <AdminPanelSettingsOutlined />, action: 'read', subject: 'AclDemo' },
];

export function useNavItems(): NavItem[] {
  const ability = useAppAbility();
  return NAV_ITEMS.filter((item) => ability.can(item.action, item.subject));
}

/** An item is active on its own route, below it, or on a route that names it as navActiveLink. */
export function useIsNavActive(to: string): boolean {
  const meta = useRouteMeta();
  const match = useMatch({ path: to, end: false });
  return !!match || meta?.navActiveLink === to;
}
